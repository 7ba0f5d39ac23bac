// A teacher's pages, /app/teacher and /app/teacher/classrooms/{id}: signed in through the
// service's OpenID Connect sign-in (/v1/auth/oidc/login?return_to=/app/teacher), whose session
// cookie the browser then sends with every call of these pages (same origin), or through an LTI
// launch (lti.ts), whose account token is kept in sessionStorage (this tab only, gone when it
// closes) and sent as a bearer token: in an LMS's frame the browser often blocks cookies. The list: their
// classrooms and a form to make one. A classroom: its students and printable sign-in cards, its
// games with a step-through review, its assignments with each student's progress and a form to
// set one, and the class's progress picture with a CSV download.
import { unwrap } from "@primegames/client";

import { api, kindNames, sentence } from "./api.js";
import { field, h, replace } from "./dom.js";
import { teacherSignIn } from "./landing.js";

interface Classroom { id: string; name: string; join_code: string }

const teacherKey = "primegames.teacher";

/** rememberTeacher keeps an LTI launch's account token for this tab's teacher pages. */
export function rememberTeacher(token: string): void {
  sessionStorage.setItem(teacherKey, token);
}

function teacherToken(): string | undefined {
  try {
    return sessionStorage.getItem(teacherKey) ?? undefined;
  } catch {
    return undefined;
  }
}

/** client is the API client of the teacher pages: with the launch's token, else the session cookie. */
function client() {
  const token = teacherToken();
  return token ? api.withToken(token) : api;
}

/** get fetches a picture or a file of the API as the teacher: the token, else the cookie. */
function get(path: string): Promise<Response> {
  const token = teacherToken();
  return fetch(path, { credentials: "same-origin", headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** fileLink is a link to a file of the API (a CSV, the sign-in cards): with a token it is fetched
 * with it and handed to the browser as a blob, since a link cannot send a header. */
function fileLink(href: string, text: string, download?: string): HTMLAnchorElement {
  const a = h("a", download ? { href, download } : { href, target: "_blank", rel: "noopener" }, text);
  a.addEventListener("click", (e) => {
    if (!teacherToken()) return;
    e.preventDefault();
    void (async () => {
      const answer = await get(href);
      if (!answer.ok) return;
      const url = URL.createObjectURL(await answer.blob());
      const blob = h("a", download ? { href: url, download } : { href: url, target: "_blank", rel: "noopener" });
      document.body.append(blob);
      blob.click();
      blob.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    })();
  });
  return a;
}
interface Student { id: string; name: string }

function frame(root: HTMLElement, title: string, ...body: HTMLElement[]): void {
  document.title = `${title} · Prime games`;
  root.replaceChildren(
    h("header", { class: "top" },
      h("a", { href: "/app/", "data-nav": "", class: "brand" }, "Prime games"),
      h("a", { href: "/app/teacher", "data-nav": "" }, "Your classrooms")),
    h("main", { id: "main", tabindex: -1, class: "teacher" }, ...body));
}

function notSignedIn(status: HTMLElement): void {
  sessionStorage.removeItem(teacherKey); // a launch's token that expired (8 hours)
  status.replaceChildren("You are not signed in. ", h("a", { href: teacherSignIn }, "Teacher sign-in"));
}

export function teacherPage(root: HTMLElement): void {
  const status = h("p", { role: "status" }, "Loading your classrooms…");
  const classrooms = h("ul", { "aria-label": "Classrooms", class: "links" });
  const name = h("input", { name: "name", required: true, maxlength: 100, autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { "aria-labelledby": "new-classroom" },
    h("h2", { id: "new-classroom" }, "New classroom"),
    field("Classroom name", name), h("button", { type: "submit" }, "Create classroom"), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    void (async () => {
      try {
        unwrap(await client().POST("/v1/classrooms", { body: { name: name.value.trim() } }));
        name.value = "";
        await load();
      } catch (err) {
        error.textContent = sentence(err);
      }
    })();
  });
  frame(root, "Teacher", h("h1", {}, "Your classrooms"), status, classrooms, form);
  async function load(): Promise<void> {
    try {
      const answer = await client().GET("/v1/me/classrooms", {});
      if (answer.response.status === 401) {
        notSignedIn(status);
        form.hidden = true;
        return;
      }
      const list: Classroom[] = unwrap(answer).classrooms;
      status.textContent = list.length === 0 ? "You have no classroom yet." : `${list.length} classrooms.`;
      classrooms.replaceChildren(...list.map((c) =>
        h("li", {}, h("a", { href: `/app/teacher/classrooms/${c.id}`, "data-nav": "" }, c.name))));
    } catch (err) {
      status.textContent = sentence(err);
    }
  }
  void load();
}

/** classroomPage is one classroom; leaving it stops its picture's blob URL. */
export function classroomPage(root: HTMLElement, id: string): () => void {
  const status = h("p", { role: "status" }, "Loading the classroom…");
  const heading = h("h1", {}, "Classroom");
  const students = h("ul", { "aria-label": "Students" });
  const games = h("ul", { "aria-label": "Games", class: "links" });
  const joinCode = h("p", {});
  const startError = h("p", { class: "error", role: "alert" });
  const start = h("button", { type: "button" }, "Start a Prime Climb game for each student against the computer");
  start.addEventListener("click", () => {
    startError.textContent = "";
    void (async () => {
      try {
        unwrap(await client().POST("/v1/classrooms/{classroom_id}/games", {
          params: { path: { classroom_id: id } },
          body: { game: "prime-climb", group_size: 1, bots: ["greedy"] },
        }));
        await Promise.all([loadStudents(), loadGames(), loadAssignments(), loadStats()]);
      } catch (err) {
        startError.textContent = sentence(err);
      }
    })();
  });
  const review = h("div", {});
  const assignments = h("div", {});
  const progress = h("div", {});
  const stats = h("div", {});
  const urls: string[] = [];
  const section = (key: string, title: string, ...body: HTMLElement[]) =>
    h("section", { "aria-labelledby": `section-${key}` }, h("h2", { id: `section-${key}` }, title), ...body);
  frame(root, "Classroom", heading, status,
    h("div", { class: "teacher-grid" },
      section("students", "Students", joinCode, students,
        h("p", {}, fileLink(`/v1/classrooms/${id}/sign-in-cards.svg`, "Print the sign-in cards"))),
      section("games", "Games", games, h("p", {}, start), startError, review),
      section("assignments", "Assignments", assignments, assignmentForm(id, () => void loadAssignments())),
      section("progress", "Progress", progress),
      section("statistics", "Statistics", stats)));

  async function loadAssignments(): Promise<void> {
    try {
      const list = unwrap(await client().GET("/v1/classrooms/{classroom_id}/assignments", { params: { path: { classroom_id: id } } })).items;
      if (list.length === 0) {
        assignments.replaceChildren(h("p", {}, "No assignments yet."));
        return;
      }
      assignments.replaceChildren(...list.map((a) => {
        const opponent = a.opponents.bot ? `against the computer (${a.opponents.bot})` : `with classmates, ${a.opponents.classmates?.group_size ?? 2} a game`;
        return h("div", { class: "assignment" },
          h("h3", {}, a.title),
          h("p", {}, `${a.games} games of ${kindNames[a.game] ?? a.game} ${opponent}, due ${new Date(a.due_at).toLocaleString()}.`),
          h("table", {},
            h("caption", {}, `Progress on ${a.title}`),
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Student"), h("th", { scope: "col" }, "Games done"), h("th", { scope: "col" }, "Late"), h("th", { scope: "col" }, "Done"))),
            h("tbody", {}, a.progress.length === 0 ? h("tr", {}, h("td", { colspan: 4 }, "No students yet.")) : null, ...a.progress.map((p) => h("tr", {},
              h("th", { scope: "row" }, p.name), h("td", {}, p.games_done), h("td", {}, p.games_late), h("td", {}, p.done ? "Yes" : "No"))))));
      }));
    } catch (err) {
      assignments.replaceChildren(h("p", {}, sentence(err)));
    }
  }

  async function loadStats(): Promise<void> {
    try {
      type Totals = { games_played: number; games_finished: number; games_won: number; hints_used: number; accuracy?: number | null };
      type Stats = { students: (Totals & { name: string })[]; class: Totals; reviews_pending: number };
      // The answer is JSON (the default Accept); the contract also offers CSV, hence the cast.
      const answer = unwrap(await client().GET("/v1/classrooms/{classroom_id}/stats", { params: { path: { classroom_id: id } } })) as unknown as Stats;
      const row = (name: string, t: Totals) => h("tr", {},
        h("th", { scope: "row" }, name), h("td", {}, `${t.games_won} / ${t.games_finished} / ${t.games_played}`),
        h("td", {}, t.hints_used), h("td", {}, t.accuracy === null || t.accuracy === undefined ? "–" : `${Math.round(t.accuracy * 100)} %`));
      replace(stats, h("table", {},
        h("caption", {}, "Statistics per student"),
        h("thead", {}, h("tr", {}, ...["Student", "Games won / finished / played", "Hints", "Accuracy"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, ...answer.students.map((st) => row(st.name, st)), row("The class", answer.class))),
        answer.reviews_pending > 0 ? h("p", {}, `${answer.reviews_pending} finished games not reviewed yet: accuracy counts them once they are.`) : null);
    } catch (err) {
      stats.replaceChildren(h("p", {}, sentence(err)));
    }
  }

  async function loadProgress(): Promise<void> {
    const csv = fileLink(`/v1/classrooms/${id}/progress.csv`, "Download CSV", "progress.csv");
    try {
      const answer = await get(`/v1/classrooms/${id}/progress.svg`);
      if (!answer.ok) throw new Error(`The progress picture could not be loaded (${answer.status}).`);
      const url = URL.createObjectURL(await answer.blob());
      urls.push(url);
      progress.replaceChildren(
        h("img", { src: url, class: "picture progress", alt: "The class's progress over time: games finished, wins, hints and missed opportunities, for the class and each student." }),
        h("p", {}, csv));
    } catch (err) {
      progress.replaceChildren(h("p", {}, sentence(err)), h("p", {}, csv));
    }
  }

  function showStudents(items: Student[]): void {
    students.replaceChildren(...items.map((s) => h("li", {}, s.name)));
    if (items.length === 0) students.replaceChildren(h("li", {}, "No students yet."));
  }

  async function loadStudents(): Promise<void> {
    showStudents(unwrap(await client().GET("/v1/classrooms/{classroom_id}/students", { params: { path: { classroom_id: id } } })).items);
  }

  async function loadGames(): Promise<void> {
    const list = unwrap(await client().GET("/v1/classrooms/{classroom_id}/games", { params: { path: { classroom_id: id } } })).items;
    games.replaceChildren(...list.map((g) => {
      const label = `${kindNames[g.game] ?? g.game}: ${g.players.join(", ")} (${g.status})`;
      return h("li", {}, label, " ", h("button", { type: "button", "aria-label": `Review ${label}`, onclick: () => showReview(g.id, label) }, "Review"));
    }));
    if (list.length === 0) games.replaceChildren(h("li", {}, "No games yet."));
  }

  function showReview(gameId: string, label: string): void {
    let from = 0;
    let shown = "";
    const img = h("img", { class: "picture", alt: "" });
    const step = h("p", { role: "status" });
    const prev = h("button", { type: "button" }, "Previous");
    const next = h("button", { type: "button" }, "Next");
    // One entry of the history a picture (count=1); the Link header's rel="next" says whether
    // there is a later one, so Next never asks for a step that is not there.
    const draw = async () => {
      prev.disabled = next.disabled = true;
      try {
        const answer = await get(`/v1/games/${gameId}/replay.svg?from=${from}&count=1`);
        if (!answer.ok) throw new Error(`The replay could not be loaded (${answer.status}).`);
        const last = !/rel="next"/.test(answer.headers.get("Link") ?? "");
        const url = URL.createObjectURL(await answer.blob());
        if (shown) URL.revokeObjectURL(shown);
        shown = url;
        urls.push(url);
        img.src = url;
        img.alt = `The game at entry ${from + 1}`;
        step.textContent = `Entry ${from + 1}${last ? ", the last so far" : ""}`;
        prev.disabled = from === 0;
        next.disabled = last;
      } catch (err) {
        step.textContent = sentence(err);
        prev.disabled = from === 0;
      }
    };
    prev.addEventListener("click", () => { if (from > 0) { from--; void draw(); } });
    next.addEventListener("click", () => { from++; void draw(); });
    review.replaceChildren(h("div", { class: "review", role: "group", "aria-label": "Review" },
      h("h3", {}, `Review: ${label}`), img, step, h("div", { class: "steps" }, prev, next)));
    void draw();
  }

  void (async () => {
    try {
      const answer = await client().GET("/v1/classrooms/{classroom_id}/students", { params: { path: { classroom_id: id } } });
      if (answer.response.status === 401) {
        notSignedIn(status);
        return;
      }
      showStudents(unwrap(answer).items);
      const mine = await client().GET("/v1/me/classrooms", {});
      const c = mine.response.ok ? unwrap(mine).classrooms.find((x: Classroom) => x.id === id) : undefined;
      if (c) {
        joinCode.replaceChildren("Students join with the code ", h("strong", { class: "code" }, c.join_code), ".");
        heading.textContent = c.name;
        document.title = `${c.name} · Prime games`;
      }
      status.textContent = "";
      await loadGames();
    } catch (err) {
      status.textContent = sentence(err);
    }
    await Promise.all([loadAssignments(), loadProgress(), loadStats()]);
  })();

  // The classroom's stream (with the session cookie): a move in any of its games refreshes the
  // list of games, the end of one also the assignments and statistics, at most once a second.
  // EventSource sends no header: a launch's token rides as access_token.
  const token = teacherToken();
  const live = new EventSource(`/v1/classrooms/${id}/events${token ? `?access_token=${encodeURIComponent(token)}` : ""}`);
  let pending: number | undefined;
  let ended = false;
  const refresh = (end: boolean) => {
    ended ||= end;
    if (pending !== undefined) return;
    pending = window.setTimeout(() => {
      pending = undefined;
      const all = ended;
      ended = false;
      void loadGames().catch(() => {});
      if (all) void Promise.all([loadAssignments(), loadStats()]);
    }, 1000);
  };
  live.addEventListener("action", () => refresh(false));
  live.addEventListener("end", () => refresh(true));
  live.addEventListener("revoked", () => live.close());
  return () => {
    live.close();
    if (pending !== undefined) window.clearTimeout(pending);
    for (const u of urls) URL.revokeObjectURL(u);
  };
}

function assignmentForm(id: string, done: () => void): HTMLFormElement {
  const title = h("input", { name: "title", required: true, maxlength: 200, autocomplete: "off" });
  const game = h("select", { name: "game" }, h("option", { value: "prime-climb" }, "Prime Climb"), h("option", { value: "primed" }, "Primed"));
  const count = h("input", { name: "games", type: "number", min: 1, max: 20, value: 3, required: true });
  const bot = h("select", { name: "bot" }, h("option", { value: "random" }, "Random"), h("option", { value: "greedy", selected: true }, "Greedy"), h("option", { value: "expert" }, "Expert"));
  const week = new Date(Date.now() + 7 * 86400e3);
  const due = h("input", { name: "due", type: "date", required: true, value: week.toISOString().slice(0, 10) });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { "aria-labelledby": `set-assignment` },
    h("h3", { id: "set-assignment" }, "Set an assignment"),
    field("Title", title), field("Game", game), field("Games each", count), field("Computer opponent", bot), field("Due date", due),
    h("button", { type: "submit" }, "Set assignment"), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    void (async () => {
      try {
        unwrap(await client().POST("/v1/classrooms/{classroom_id}/assignments", {
          params: { path: { classroom_id: id } },
          body: {
            title: title.value.trim(),
            game: game.value as "prime-climb" | "primed",
            games: Number(count.value),
            opponents: { bot: bot.value as "random" | "greedy" | "expert" },
            due_at: new Date(`${due.value}T23:59:00`).toISOString(),
          },
        }));
        title.value = "";
        done();
      } catch (err) {
        error.textContent = sentence(err);
      }
    })();
  });
  return form;
}
