// A child's sign-in with a class sign-in card: /app/sign-in#class=…&code=… (the QR code's link; the
// codes ride in the fragment, which the browser never sends to a server), or typed from the card.
// The student token is kept in localStorage; /app/me lists the child's games with it.
import { unwrap } from "@primegames/client";

import { api, forgetSeat, kindNames, saveSeat, seats, sentence, statusWord } from "./api.js";
import { field, go, h } from "./dom.js";
import { t } from "./i18n.js";
import { tell } from "./notice.js";

const studentKey = "primegames.student";

interface Student {
  token: string;
  name: string;
  classroom: string;
}

export function student(): Student | undefined {
  try {
    return JSON.parse(localStorage.getItem(studentKey) ?? "null") ?? undefined;
  } catch {
    return undefined;
  }
}

export function signInPage(root: HTMLElement): void {
  document.title = `${t("Sign in")} · Prime games`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  const classCode = h("input", { name: "class", required: true, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 20, value: fragment.get("class") ?? "" });
  const code = h("input", { name: "code", required: true, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 20, value: fragment.get("code") ?? "" });
  // The codes leave the address bar (and the history) at once.
  if (location.hash) history.replaceState(null, "", location.pathname);
  const error = h("p", { class: "error", role: "alert" });
  const form = h("form", { "aria-labelledby": "signin-heading", novalidate: true },
    h("h2", { id: "signin-heading" }, t("Sign in with your card")),
    field(t("Class code"), classCode), field(t("Your code"), code),
    h("button", { type: "submit" }, t("Sign in")), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    void (async () => {
      try {
        const joined = unwrap(await api.POST("/v1/students/sign-in", { body: { class_code: classCode.value.trim(), code: code.value.trim() } }));
        localStorage.setItem(studentKey, JSON.stringify({ token: joined.token, name: joined.student.name, classroom: joined.classroom_name }));
        go("/app/me");
      } catch (err) {
        error.textContent = sentence(err);
      }
    })();
  });
  root.replaceChildren(
    h("header", { class: "top" }, h("a", { href: "/app/", "data-nav": "", class: "brand" }, "Prime games")),
    h("main", { id: "main", tabindex: -1 }, h("h1", {}, t("Sign in")), form));
  if (classCode.value && code.value) form.requestSubmit();
}

/** signOut ends the card sign-in on the server (its token stops working at once), then forgets it
 * here with the seats it opened, even when the server cannot be reached: the next child on this
 * device finds nothing of this one's. A student's own token (an LTI launch's) cannot sign out
 * (403 not_a_sign_in) and is only forgotten. */
async function signOut(me: Student, button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  try {
    await api.withToken(me.token).POST("/v1/students/sign-out", {});
  } catch {
    // offline, or refused: forgotten all the same
  }
  localStorage.removeItem(studentKey);
  for (const seat of seats()) {
    if (seat.token === me.token) forgetSeat(seat.gameId);
  }
  tell(t("You are signed out."));
  go("/app/");
}

interface GameItem { id: string; game: string; status: string }

export function myGamesPage(root: HTMLElement): void {
  const me = student();
  const list = h("ul", { class: "links", "aria-label": t("Your games") });
  const status = h("p", { role: "status" }, t("Loading your games…"));
  root.replaceChildren(
    h("header", { class: "top" }, h("a", { href: "/app/", "data-nav": "", class: "brand" }, "Prime games")),
    h("main", { id: "main", tabindex: -1 },
      h("h1", {}, me ? t("Hello, {name}", { name: me.name }) : t("Sign in first")),
      me ? h("p", {}, t("Class: {classroom}", { classroom: me.classroom })) : h("p", {}, h("a", { href: "/app/sign-in", "data-nav": "" }, t("Sign in with your card"))),
      me ? status : null, list,
      me ? h("button", { type: "button", onclick: (e: Event) => void signOut(me, e.currentTarget as HTMLButtonElement) }, t("Sign out")) : null));
  if (!me) return;
  document.title = `${me.name} · Prime games`;
  void (async () => {
    try {
      const page: { items: GameItem[] } = unwrap(await api.withToken(me.token).GET("/v1/me/games", {}));
      status.textContent = page.items.length === 0 ? t("No games yet: your teacher starts them.") : t("{n} games.", { n: page.items.length });
      list.replaceChildren(...page.items.map((g) => h("li", {}, h("a", {
        href: `/app/game/${g.id}`,
        onclick: () => saveSeat({ gameId: g.id, token: me.token, name: me.name, kind: g.game, savedAt: Date.now() }),
        "data-nav": "",
      }, `${kindNames[g.game] ?? g.game} (${statusWord(g.status)})`))));
    } catch (err) {
      status.textContent = sentence(err);
    }
  })();
}
