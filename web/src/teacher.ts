// A teacher's pages, /app/teacher and /app/teacher/classrooms/{id}: signed in through the
// service's OpenID Connect sign-in (/v1/auth/oidc/login?return_to=/app/teacher), whose session
// cookie the browser then sends with every call of these pages (same origin), or through an LTI
// launch (lti.ts), whose account token is kept in sessionStorage (this tab only, gone when it
// closes) and sent as a bearer token: in an LMS's frame the browser often blocks cookies. The list:
// their classrooms and a form to make one. A classroom: its students and printable sign-in cards,
// its games (started here, between classmates or against the computer) with a step-through review,
// the live games' pictures following the classroom's stream, its assignments with each student's
// progress (set, changed and deleted here), and the class's progress picture with a CSV download.
import { unwrap } from "@primegames/client";

import { api, kindNames, Refusal, sentence } from "./api.js";
import { field, go, h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { teacherSignIn } from "./landing.js";
import { tell } from "./notice.js";

interface Classroom { id: string; name: string; join_code: string }
interface Student { id: string; name: string; created_at?: string }
interface GameSummary { id: string; game: string; status: string; players: string[] }
type Kind = "prime-climb" | "primed";
type Bot = "random" | "greedy" | "expert";

const teacherKey = "primegames.teacher";
const teacherTokenIdKey = "primegames.teacher.id";

/** rememberTeacher keeps an LTI launch's account token for this tab's teacher pages, with its id,
 * which revokes it on signing out. */
export function rememberTeacher(token: string, id?: string): void {
  sessionStorage.setItem(teacherKey, token);
  if (id) sessionStorage.setItem(teacherTokenIdKey, id);
  else sessionStorage.removeItem(teacherTokenIdKey);
}

/** signOut ends the teacher's session on the server: the cookie's at POST /v1/auth/logout, or a
 * launch's account token revoked by its id; then forgets the token here even when the server cannot
 * be reached, and lands on /app/ saying so. */
async function signOut(button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  const token = teacherToken();
  const id = sessionStorage.getItem(teacherTokenIdKey);
  try {
    if (!token) await api.POST("/v1/auth/logout", {});
    else if (id) await api.withToken(token).DELETE("/v1/me/tokens/{token_id}", { params: { path: { token_id: id } } });
  } catch {
    // offline: forgotten all the same
  }
  sessionStorage.removeItem(teacherKey);
  sessionStorage.removeItem(teacherTokenIdKey);
  tell(t("You are signed out."));
  go("/app/");
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

/** The games' kinds and the computer players the API offers (GameKind and BotLevel). */
const kinds: Kind[] = ["prime-climb", "primed"];
const bots: Bot[] = ["random", "greedy", "expert"];

function botName(bot: string): string {
  switch (bot) {
    case "random":
      return t("Random (easy)");
    case "greedy":
      return t("Greedy (medium)");
    case "expert":
      return t("Expert (hard)");
    default:
      return bot;
  }
}

function statusName(status: string): string {
  switch (status) {
    case "lobby":
      return t("in the lobby");
    case "active":
      return t("under way");
    case "finished":
      return t("over");
    case "aborted":
      return t("aborted");
    default:
      return status;
  }
}

function kindSelect(name: string, selected: Kind = "prime-climb"): HTMLSelectElement {
  return h("select", { name }, ...kinds.map((k) => h("option", { value: k, selected: k === selected }, kindNames[k] ?? k)));
}

function botSelect(name: string, selected: Bot | "" , none?: string): HTMLSelectElement {
  return h("select", { name },
    none === undefined ? null : h("option", { value: "", selected: selected === "" }, none),
    ...bots.map((b) => h("option", { value: b, selected: b === selected }, botName(b))));
}

/** dueAt is a due date (yyyy-mm-dd) at 23:59 in the browser's time zone. */
function dueAt(day: string): string {
  return new Date(`${day}T23:59:00`).toISOString();
}

/** day is the local date (yyyy-mm-dd) of a time. */
function day(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

function frame(root: HTMLElement, title: string, ...body: HTMLElement[]): void {
  document.title = `${title} · Prime games`;
  root.replaceChildren(
    h("header", { class: "top" },
      h("a", { href: "/app/", "data-nav": "", class: "brand" }, "Prime games"),
      h("span", { class: "top-actions" },
        h("a", { href: "/app/teacher", "data-nav": "" }, t("Your classrooms")),
        h("button", { type: "button", onclick: (e: Event) => void signOut(e.currentTarget as HTMLButtonElement) }, t("Sign out")))),
    h("main", { id: "main", tabindex: -1, class: "teacher" }, ...body));
}

function notSignedIn(status: HTMLElement): void {
  sessionStorage.removeItem(teacherKey); // a launch's token that expired (8 hours)
  sessionStorage.removeItem(teacherTokenIdKey);
  status.replaceChildren(t("You are not signed in."), " ", h("a", { href: teacherSignIn }, t("Sign in as a teacher")));
}

export function teacherPage(root: HTMLElement): void {
  const status = h("p", { role: "status" }, t("Loading your classrooms…"));
  const classrooms = h("ul", { "aria-label": t("Classrooms"), class: "links" });
  const name = h("input", { name: "name", required: true, maxlength: 100, autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { "aria-labelledby": "new-classroom" },
    h("h2", { id: "new-classroom" }, t("New classroom")),
    field(t("Classroom name"), name), h("button", { type: "submit" }, t("Create classroom")), error);
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
  frame(root, t("Teacher"), h("h1", {}, t("Your classrooms")), status, classrooms, form);
  async function load(): Promise<void> {
    try {
      const answer = await client().GET("/v1/me/classrooms", {});
      if (answer.response.status === 401) {
        notSignedIn(status);
        form.hidden = true;
        return;
      }
      const list: Classroom[] = unwrap(answer).classrooms;
      status.textContent = list.length === 0 ? t("You have no classroom yet.") : t("{n} classrooms.", { n: list.length });
      classrooms.replaceChildren(...list.map((c) =>
        h("li", {}, h("a", { href: `/app/teacher/classrooms/${c.id}`, "data-nav": "" }, c.name))));
    } catch (err) {
      status.textContent = sentence(err);
    }
  }
  void load();
}

/** The most live games whose pictures the classroom page shows, and how often each is redrawn. */
const livePictures = 12;
const redrawEvery = 1000;

/** classroomPage is one classroom; leaving it closes its stream and frees its pictures. */
export function classroomPage(root: HTMLElement, id: string): () => void {
  const status = h("p", { role: "status" }, t("Loading the classroom…"));
  const heading = h("h1", {}, t("Classroom"));
  const students = h("ul", { "aria-label": t("Students") });
  const games = h("ul", { "aria-label": t("Games"), class: "links" });
  const liveList = h("ul", { class: "live", "aria-label": t("Live games") });
  const liveNote = h("p", {});
  const joinCode = h("p", {});
  const review = h("div", {});
  const assignments = h("div", {});
  const progress = h("div", {});
  const stats = h("div", {});
  const detail = h("div", {});
  const urls: string[] = [];
  const start = startForm(id, () => void Promise.all([loadStudents(), loadGames(), loadAssignments(), loadStats()]));
  const section = (key: string, title: string, ...body: HTMLElement[]) =>
    h("section", { "aria-labelledby": `section-${key}` }, h("h2", { id: `section-${key}`, tabindex: -1 }, title), ...body);
  frame(root, t("Classroom"), heading, status,
    h("div", { class: "teacher-grid" },
      section("students", t("Students"), joinCode, students,
        h("p", {}, fileLink(`/v1/classrooms/${id}/sign-in-cards.svg`, t("Print the sign-in cards")))),
      section("games", t("Games"), games, start.form, review),
      section("live", t("Live games"), liveNote, liveList),
      section("assignments", t("Assignments"), assignments, assignmentForm(id, () => void loadAssignments())),
      section("progress", t("Progress"), progress),
      section("statistics", t("Statistics"), stats, detail)));

  /** The assignment whose Edit form is open, and the one whose deletion is being confirmed. */
  let editing = "";
  let confirming = "";
  type Assignment = { id: string; title: string; game: string; games: number; due_at: string; opponents: { bot?: string | null; classmates?: { group_size: number } | null };
    progress: { name: string; games_done: number; games_late: number; done: boolean }[] };

  async function loadAssignments(focus?: string): Promise<void> {
    try {
      const list: Assignment[] = unwrap(await client().GET("/v1/classrooms/{classroom_id}/assignments", { params: { path: { classroom_id: id } } })).items;
      if (list.length === 0) {
        assignments.replaceChildren(h("p", {}, t("No assignments yet.")));
        return;
      }
      assignments.replaceChildren(...list.map((a) => editing === a.id ? editForm(a) : assignmentView(a)));
      if (focus) assignments.querySelector<HTMLElement>(`[data-focus="${focus}"]`)?.focus();
    } catch (err) {
      assignments.replaceChildren(h("p", {}, sentence(err)));
    }
  }

  function assignmentView(a: Assignment): HTMLElement {
    const game = kindNames[a.game] ?? a.game;
    const due = new Date(a.due_at).toLocaleString();
    const what = a.opponents.bot
      ? t("{n} games of {game} against the computer ({bot}), due {due}.", { n: a.games, game, bot: botName(a.opponents.bot), due })
      : t("{n} games of {game} with classmates, {size} a game, due {due}.", { n: a.games, game, size: a.opponents.classmates?.group_size ?? 2, due });
    const edit = h("button", { type: "button", "aria-label": t("Edit {title}", { title: a.title }), "data-focus": `edit-${a.id}` }, t("Edit"));
    edit.addEventListener("click", () => {
      editing = a.id;
      confirming = "";
      void loadAssignments(`title-${a.id}`);
    });
    const del = h("button", { type: "button", "aria-label": t("Delete {title}", { title: a.title }), "data-focus": `delete-${a.id}` }, t("Delete"));
    del.addEventListener("click", () => {
      confirming = a.id;
      void loadAssignments(`keep-${a.id}`);
    });
    return h("div", { class: "assignment" },
      h("h3", {}, a.title),
      h("p", {}, what),
      h("div", { class: "steps" }, edit, del),
      confirming === a.id ? confirmDelete(a) : null,
      h("table", {},
        h("caption", {}, t("Progress on {title}", { title: a.title })),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Student")), h("th", { scope: "col" }, t("Games done")), h("th", { scope: "col" }, t("Late")), h("th", { scope: "col" }, t("Done")))),
        h("tbody", {}, a.progress.length === 0 ? h("tr", {}, h("td", { colspan: 4 }, t("No students yet."))) : null, ...a.progress.map((p) => h("tr", {},
          h("th", { scope: "row" }, p.name), h("td", {}, p.games_done), h("td", {}, p.games_late), h("td", {}, p.done ? t("Yes") : t("No")))))));
  }

  /** confirmDelete is the in-page confirmation of a deletion: a group with the question, "Keep
   * it" (focused, so Enter or Space keeps it) and the deletion itself; Escape keeps it too. */
  function confirmDelete(a: Assignment): HTMLElement {
    const question = h("p", { id: `confirm-${a.id}` }, t("Delete {title} and its progress? Its games stay.", { title: a.title }));
    const error = h("p", { class: "error", role: "alert" });
    const keep = h("button", { type: "button", "data-focus": `keep-${a.id}` }, t("Keep it"));
    const yes = h("button", { type: "button", class: "danger" }, t("Yes, delete it"));
    const cancel = () => {
      confirming = "";
      void loadAssignments(`delete-${a.id}`);
    };
    keep.addEventListener("click", cancel);
    yes.addEventListener("click", () => {
      yes.disabled = true;
      void (async () => {
        try {
          unwrap(await client().DELETE("/v1/classrooms/{classroom_id}/assignments/{assignment_id}", { params: { path: { classroom_id: id, assignment_id: a.id } } }));
          confirming = "";
          await loadAssignments();
          document.getElementById("section-assignments")?.focus();
        } catch (err) {
          error.textContent = sentence(err);
          yes.disabled = false;
        }
      })();
    });
    const group = h("div", { role: "group", class: "confirm", "aria-labelledby": `confirm-${a.id}` }, question, h("div", { class: "steps" }, keep, yes), error);
    group.addEventListener("keydown", (e) => {
      if (e.key === "Escape") cancel();
    });
    return group;
  }

  /** editForm changes an assignment's title, due date and games each (PATCH). */
  function editForm(a: Assignment): HTMLElement {
    const title = h("input", { name: "title", required: true, maxlength: 200, autocomplete: "off", value: a.title, "data-focus": `title-${a.id}` });
    const count = h("input", { name: "games", type: "number", min: 1, max: 20, value: a.games, required: true });
    const due = h("input", { name: "due", type: "date", required: true, value: day(new Date(a.due_at)) });
    const error = h("p", { class: "error", role: "alert" });
    const cancel = h("button", { type: "button", class: "secondary" }, t("Cancel"));
    const form = h("form", { "aria-labelledby": `edit-${a.id}`, class: "assignment" },
      h("h3", { id: `edit-${a.id}` }, t("Edit {title}", { title: a.title })),
      field(t("Title"), title), field(t("Games each"), count), field(t("Due date"), due),
      h("div", { class: "steps" }, h("button", { type: "submit" }, t("Save changes")), cancel), error);
    cancel.addEventListener("click", () => {
      editing = "";
      void loadAssignments(`edit-${a.id}`);
    });
    form.addEventListener("keydown", (e) => {
      if (e.key === "Escape") cancel.click();
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      error.textContent = "";
      void (async () => {
        try {
          unwrap(await client().PATCH("/v1/classrooms/{classroom_id}/assignments/{assignment_id}", {
            params: { path: { classroom_id: id, assignment_id: a.id } },
            body: { title: title.value.trim(), games: Number(count.value), due_at: dueAt(due.value) },
          }));
          editing = "";
          await loadAssignments(`edit-${a.id}`);
        } catch (err) {
          error.textContent = sentence(err);
        }
      })();
    });
    return form;
  }

  type Totals = { games_played: number; games_finished: number; games_won: number; hints_used: number; accuracy?: number | null; judged_actions?: number;
    games?: Record<string, { review?: { judged: number; accuracy?: number | null } }> };
  type StudentTotals = Totals & { name: string; student_id: string };
  /** The student whose games and accuracy are open under the statistics, if any. */
  let shownStudent = "";

  async function loadStats(): Promise<void> {
    try {
      type Stats = { students: StudentTotals[]; class: Totals; reviews_pending: number };
      // The answer is JSON (the default Accept); the contract also offers CSV, hence the cast.
      const answer = unwrap(await client().GET("/v1/classrooms/{classroom_id}/stats", { params: { path: { classroom_id: id } } })) as unknown as Stats;
      const who = (name: string, s: Totals) => {
        if (!("student_id" in s)) return name;
        const st = s as StudentTotals;
        return h("button", {
          type: "button", class: "name", "data-focus": `student-${st.student_id}`, "aria-expanded": shownStudent === st.student_id ? "true" : "false",
          "aria-label": t("Games and accuracy of {name}", { name }), onclick: () => void showStudent(st, true),
        }, name);
      };
      const row = (name: string, s: Totals) => h("tr", {},
        h("th", { scope: "row" }, who(name, s)), h("td", {}, `${s.games_won} / ${s.games_finished} / ${s.games_played}`),
        h("td", {}, s.hints_used), h("td", {}, s.accuracy === null || s.accuracy === undefined ? "–" : `${Math.round(s.accuracy * 100)} %`));
      replace(stats, h("table", {},
        h("caption", {}, t("Statistics per student")),
        h("thead", {}, h("tr", {}, ...[t("Student"), t("Games won / finished / played"), t("Hints"), t("Accuracy")].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, ...answer.students.map((st) => row(st.name, st)), row(t("The class"), answer.class))),
        answer.reviews_pending > 0 ? h("p", {}, t("{n} finished games not reviewed yet: accuracy counts them once they are.", { n: answer.reviews_pending })) : null);
      const open = answer.students.find((st) => st.student_id === shownStudent);
      if (open) void showStudent(open, false);
      else if (shownStudent) closeStudent(false);
    } catch (err) {
      stats.replaceChildren(h("p", {}, sentence(err)));
    }
  }

  const percent = (share: number) => Math.round(share * 100);

  /** showStudent opens, under the statistics, one student's figures, accuracy by game and games
   * (GET …/games?student=…); focus moves to its heading when the teacher opened it. */
  async function showStudent(st: StudentTotals, focus: boolean): Promise<void> {
    shownStudent = st.student_id;
    for (const b of stats.querySelectorAll<HTMLElement>("button.name")) b.setAttribute("aria-expanded", String(b.dataset["focus"] === `student-${st.student_id}`));
    const heading = h("h3", { id: "student-detail", tabindex: -1 }, t("{name}: games and accuracy", { name: st.name }));
    const theirGames = h("ul", { "aria-label": t("Games of {name}", { name: st.name }), class: "links" });
    const close = h("button", { type: "button", class: "secondary" }, t("Close"));
    close.addEventListener("click", () => closeStudent(true));
    const byKind = Object.entries(st.games ?? {}).filter(([, k]) => (k.review?.judged ?? 0) > 0 && k.review?.accuracy !== null && k.review?.accuracy !== undefined);
    const panel = h("div", { role: "region", "aria-labelledby": "student-detail", class: "student-detail" },
      heading,
      h("p", {}, t("Games won / finished / played: {won} / {finished} / {played}. Hints: {hints}.", { won: st.games_won, finished: st.games_finished, played: st.games_played, hints: st.hints_used })),
      h("p", {}, st.accuracy === null || st.accuracy === undefined
        ? t("No move judged yet: accuracy counts finished games once they are reviewed.")
        : t("Accuracy {percent} % over {n} judged moves.", { percent: percent(st.accuracy), n: st.judged_actions ?? 0 })),
      byKind.length === 0 ? null : h("ul", { "aria-label": t("Accuracy by game") }, ...byKind.map(([kind, k]) =>
        h("li", {}, t("{game}: {percent} % over {n} judged moves", { game: kindNames[kind] ?? kind, percent: percent(k.review?.accuracy ?? 0), n: k.review?.judged ?? 0 })))),
      theirGames, close);
    detail.replaceChildren(panel);
    if (focus) heading.focus();
    try {
      const list: GameSummary[] = unwrap(await client().GET("/v1/classrooms/{classroom_id}/games", { params: { path: { classroom_id: id }, query: { student: st.student_id } } })).items;
      theirGames.replaceChildren(...list.map((g) => h("li", {}, gameLabel(g))));
      if (list.length === 0) theirGames.replaceChildren(h("li", {}, t("No games yet.")));
    } catch (err) {
      theirGames.replaceChildren(h("li", {}, sentence(err)));
    }
  }

  function closeStudent(focus: boolean): void {
    const was = shownStudent;
    shownStudent = "";
    detail.replaceChildren();
    for (const b of stats.querySelectorAll<HTMLElement>("button.name")) b.setAttribute("aria-expanded", "false");
    if (focus) stats.querySelector<HTMLElement>(`[data-focus="student-${was}"]`)?.focus();
  }

  async function loadProgress(): Promise<void> {
    const csv = fileLink(`/v1/classrooms/${id}/progress.csv`, t("Download CSV"), "progress.csv");
    try {
      const answer = await get(`/v1/classrooms/${id}/progress.svg`);
      if (!answer.ok) throw new Error(t("The progress picture could not be loaded (error {status}).", { status: String(answer.status) }));
      const url = URL.createObjectURL(await answer.blob());
      urls.push(url);
      progress.replaceChildren(
        h("img", { src: url, class: "picture progress", alt: t("The class's progress over time: games finished, wins, hints and missed opportunities, for the class and each student.") }),
        h("p", {}, csv));
    } catch (err) {
      progress.replaceChildren(h("p", {}, sentence(err)), h("p", {}, csv));
    }
  }

  function showStudents(items: Student[]): void {
    start.setStudents(items);
    students.replaceChildren(...items.map((s) => h("li", {}, s.name)));
    if (items.length === 0) students.replaceChildren(h("li", {}, t("No students yet.")));
  }

  async function loadStudents(): Promise<void> {
    showStudents(unwrap(await client().GET("/v1/classrooms/{classroom_id}/students", { params: { path: { classroom_id: id } } })).items);
  }

  const gameLabel = (g: GameSummary) => t("{game}: {players} ({status})", { game: kindNames[g.game] ?? g.game, players: g.players.join(", "), status: statusName(g.status) });

  async function loadGames(): Promise<void> {
    // The list (its first page, newest first) and, on their own, the newest games being played.
    const [all, active] = await Promise.all([
      client().GET("/v1/classrooms/{classroom_id}/games", { params: { path: { classroom_id: id } } }),
      client().GET("/v1/classrooms/{classroom_id}/games", { params: { path: { classroom_id: id }, query: { status: "active", limit: livePictures } } }),
    ]);
    const list: GameSummary[] = unwrap(all).items;
    games.replaceChildren(...list.map((g) => {
      const label = gameLabel(g);
      return h("li", {}, label, " ", h("button", { type: "button", "aria-label": t("Review {game}", { game: label }), onclick: () => showReview(g.id, label) }, t("Review")));
    }));
    if (list.length === 0) games.replaceChildren(h("li", {}, t("No games yet.")));
    const playing = unwrap(active);
    showLive(playing.items, Boolean(playing.next_cursor));
  }

  // The live games: a picture of each (at most livePictures, the newest), redrawn when the stream
  // reports a move in it, at most once every redrawEvery ms per game.
  interface Live { item: HTMLLIElement; img: HTMLImageElement; caption: HTMLElement; url: string; drawn: number; timer: number | undefined; busy: boolean; again: boolean }
  const live = new Map<string, Live>();

  function showLive(active: GameSummary[], more: boolean): void {
    const shown = active.slice(0, livePictures);
    liveNote.textContent = shown.length === 0 ? t("No game is being played now.")
      : more ? t("The {n} newest games being played, live.", { n: shown.length })
        : t("{n} games being played, live.", { n: shown.length });
    const keep = new Set(shown.map((g) => g.id));
    for (const [gameId, l] of live) {
      if (keep.has(gameId)) continue;
      if (l.timer !== undefined) window.clearTimeout(l.timer);
      if (l.url) URL.revokeObjectURL(l.url);
      live.delete(gameId);
    }
    liveList.replaceChildren(...shown.map((g) => {
      let l = live.get(g.id);
      if (!l) {
        const img = h("img", { class: "picture", alt: t("The position of {game}", { game: gameLabel(g) }) });
        const caption = h("figcaption", {});
        l = { item: h("li", {}, h("figure", {}, img, caption)), img, caption, url: "", drawn: 0, timer: undefined, busy: false, again: false };
        live.set(g.id, l);
        void draw(g.id);
      }
      l.caption.textContent = gameLabel(g);
      return l.item;
    }));
  }

  async function draw(gameId: string): Promise<void> {
    const l = live.get(gameId);
    if (!l) return;
    if (l.busy) {
      l.again = true;
      return;
    }
    l.busy = true;
    l.drawn = Date.now();
    try {
      const answer = await get(`/v1/games/${gameId}/picture.svg?layout=phone`);
      if (answer.ok && live.get(gameId) === l) {
        const url = URL.createObjectURL(await answer.blob());
        if (l.url) URL.revokeObjectURL(l.url);
        l.url = url;
        l.img.src = url;
      }
    } catch {
      // the next move draws it again
    } finally {
      l.busy = false;
      if (l.again) {
        l.again = false;
        redraw(gameId);
      }
    }
  }

  function redraw(gameId: string): void {
    const l = live.get(gameId);
    if (!l || l.timer !== undefined) return;
    const wait = l.drawn + redrawEvery - Date.now();
    if (wait <= 0) {
      void draw(gameId);
      return;
    }
    l.timer = window.setTimeout(() => {
      l.timer = undefined;
      void draw(gameId);
    }, wait);
  }

  function showReview(gameId: string, label: string): void {
    let from = 0;
    let shown = "";
    const img = h("img", { class: "picture", alt: "" });
    const step = h("p", { role: "status" });
    const prev = h("button", { type: "button" }, t("Previous"));
    const next = h("button", { type: "button" }, t("Next"));
    // One entry of the history a picture (count=1); the Link header's rel="next" says whether
    // there is a later one, so Next never asks for a step that is not there.
    const drawStep = async () => {
      prev.disabled = next.disabled = true;
      try {
        const answer = await get(`/v1/games/${gameId}/replay.svg?from=${from}&count=1`);
        if (!answer.ok) throw new Error(t("The replay could not be loaded (error {status}).", { status: String(answer.status) }));
        const last = !/rel="next"/.test(answer.headers.get("Link") ?? "");
        const url = URL.createObjectURL(await answer.blob());
        if (shown) URL.revokeObjectURL(shown);
        shown = url;
        urls.push(url);
        img.src = url;
        img.alt = t("The game at entry {number}", { number: from + 1 });
        step.textContent = last ? t("Entry {number}, the last so far", { number: from + 1 }) : t("Entry {number}", { number: from + 1 });
        prev.disabled = from === 0;
        next.disabled = last;
      } catch (err) {
        step.textContent = sentence(err);
        prev.disabled = from === 0;
      }
    };
    prev.addEventListener("click", () => { if (from > 0) { from--; void drawStep(); } });
    next.addEventListener("click", () => { from++; void drawStep(); });
    review.replaceChildren(h("div", { class: "review", role: "group", "aria-label": t("Review") },
      h("h3", {}, t("Review: {game}", { game: label })), img, step, h("div", { class: "steps" }, prev, next)));
    void drawStep();
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
        const [before, after] = t("Students join with the code {code}.").split("{code}");
        joinCode.replaceChildren(before ?? "", h("strong", { class: "code" }, c.join_code), after ?? "");
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

  // The classroom's stream (the session cookie, or a launch's token as access_token: EventSource
  // sends no header). A move redraws its game's picture (at most once a second a game) and
  // refreshes the list of games, the end of one also the assignments and statistics, at most once
  // a second.
  const token = teacherToken();
  let stream = follow();
  let reopen: number | undefined;
  let stopped = false;
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
  const gameOf = (e: Event): string => {
    try {
      return String((JSON.parse((e as MessageEvent<string>).data) as { game_id?: string }).game_id ?? "");
    } catch {
      return "";
    }
  };
  function follow(): EventSource {
    const source = new EventSource(`/v1/classrooms/${id}/events${token ? `?access_token=${encodeURIComponent(token)}` : ""}`);
    source.addEventListener("action", (e) => {
      redraw(gameOf(e));
      refresh(false);
    });
    source.addEventListener("end", () => refresh(true));
    // The stream's last message when the credential's authority ended (signed out here or in
    // another tab, the token revoked or replaced, the teacher removed): the page says so, and
    // neither the stream nor a timer goes on with the old credential.
    source.addEventListener("revoked", (e) => {
      let reason = "";
      try {
        reason = String((JSON.parse((e as MessageEvent<string>).data) as { reason?: string }).reason ?? "");
      } catch {
        // said below as a sign-out
      }
      stop();
      if (reason === "teacher_removed") status.textContent = t("You are no longer a teacher of this classroom.");
      else notSignedIn(status);
    });
    // A broken connection the browser reopens by itself; a reopening the server refused (the
    // session ended while offline, the server busy) closes the stream for good: the page asks why,
    // says so, and follows again in 20 s when the refusal was not about the credential.
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED || source !== stream) return;
      void (async () => {
        const answer = await client().GET("/v1/classrooms/{classroom_id}/students", { params: { path: { classroom_id: id } } }).catch(() => undefined);
        if (source !== stream || stopped) return; // left or reopened meanwhile
        const code = answer?.response.status ?? 0;
        if (code === 401) {
          stop();
          notSignedIn(status);
        } else if (code === 403 || code === 404) {
          stop();
          status.textContent = t("You are no longer a teacher of this classroom.");
        } else {
          status.textContent = t("Live updates paused: the server is busy or out of reach. Trying again…");
          reopen = window.setTimeout(() => {
            reopen = undefined;
            status.textContent = "";
            stream = follow();
          }, 20_000);
        }
      })();
    });
    return source;
  }
  const stop = () => {
    stopped = true;
    stream.close();
    if (reopen !== undefined) window.clearTimeout(reopen);
    if (pending !== undefined) window.clearTimeout(pending);
    for (const l of live.values()) {
      if (l.timer !== undefined) window.clearTimeout(l.timer);
      if (l.url) URL.revokeObjectURL(l.url);
    }
    live.clear();
  };
  return () => {
    stop();
    for (const u of urls) URL.revokeObjectURL(u);
  };
}

/** startForm starts a game for each group of students: the game, who plays (every student at first;
 * the teacher may leave some out), the students in each game and a computer player besides them
 * (none: classmates only; one student a game needs one). setStudents gives it the classroom's
 * students, keeping what the teacher chose of those it had. */
function startForm(id: string, done: () => void): { form: HTMLFormElement; setStudents: (items: Student[]) => void } {
  const game = kindSelect("game");
  const size = h("select", { name: "group_size" }, ...[1, 2, 3, 4, 5, 6].map((n) => h("option", { value: n, selected: n === 2 }, String(n))));
  const bot = botSelect("bot", "", t("None: classmates only"));
  const error = h("p", { class: "error", role: "alert" });
  const note = h("p", { role: "status" });
  let roster: Student[] = [];
  const boxes = new Map<string, HTMLInputElement>();
  const who = h("fieldset", { class: "choose" }, h("legend", {}, t("Who plays")));
  const setStudents = (items: Student[]) => {
    roster = items;
    const before = new Map([...boxes].map(([sid, box]) => [sid, box.checked]));
    boxes.clear();
    who.replaceChildren(h("legend", {}, t("Who plays")), ...items.map((s) => {
      const box = h("input", { type: "checkbox", name: "student", value: s.id, checked: before.get(s.id) ?? true });
      boxes.set(s.id, box);
      return h("label", {}, box, h("span", {}, s.name));
    }));
    who.hidden = items.length === 0;
  };
  const form = h("form", { "aria-labelledby": "start-games" },
    h("h3", { id: "start-games" }, t("Start games")),
    h("p", {}, t("One game for each group of students, in the order they joined.")),
    field(t("Which game"), game), who, field(t("Students in each game"), size), field(t("Computer player"), bot),
    h("button", { type: "submit" }, t("Start games")), error, note);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = note.textContent = "";
    void (async () => {
      try {
        // Everyone: no student_ids (every current student, in the order they joined); some: the
        // chosen ones, in the order they joined too.
        const chosen = roster.filter((s) => boxes.get(s.id)?.checked)
          .sort((a, b) => Date.parse(a.created_at ?? "") - Date.parse(b.created_at ?? ""));
        if (roster.length > 0 && chosen.length === 0) throw new Refusal(t("Choose at least one student."));
        const some = chosen.length < roster.length ? { student_ids: chosen.map((s) => s.id) } : {};
        const started = unwrap(await client().POST("/v1/classrooms/{classroom_id}/games", {
          params: { path: { classroom_id: id } },
          body: { game: game.value as Kind, group_size: Number(size.value), ...some, ...(bot.value ? { bots: [bot.value as Bot] } : {}) },
        }));
        note.textContent = t("{n} games started.", { n: started.games.length });
        done();
      } catch (err) {
        error.textContent = sentence(err);
      }
    })();
  });
  return { form, setStudents };
}

function assignmentForm(id: string, done: () => void): HTMLFormElement {
  const title = h("input", { name: "title", required: true, maxlength: 200, autocomplete: "off" });
  const game = kindSelect("game");
  const count = h("input", { name: "games", type: "number", min: 1, max: 20, value: 3, required: true });
  const bot = botSelect("bot", "greedy");
  const due = h("input", { name: "due", type: "date", required: true, value: day(new Date(Date.now() + 7 * 86400e3)) });
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { "aria-labelledby": `set-assignment` },
    h("h3", { id: "set-assignment" }, t("Set an assignment")),
    field(t("Title"), title), field(t("Which game"), game), field(t("Games each"), count), field(t("Computer opponent"), bot), field(t("Due date"), due),
    h("button", { type: "submit" }, t("Set assignment")), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    void (async () => {
      try {
        unwrap(await client().POST("/v1/classrooms/{classroom_id}/assignments", {
          params: { path: { classroom_id: id } },
          body: {
            title: title.value.trim(),
            game: game.value as Kind,
            games: Number(count.value),
            opponents: { bot: bot.value as Bot },
            due_at: dueAt(due.value),
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
