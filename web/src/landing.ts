// The landing page, /app/: join a game by its invite code first, then play against the computer,
// open a game for a classmate, go back to a game this browser holds a seat in, or sign in as a teacher.
import { unwrap } from "@primegames/client";

import { api, kindNames, lastName, Refusal, rememberName, saveSeat, seats, sentence } from "./api.js";
import { field, go, h } from "./dom.js";
import { t } from "./i18n.js";
import { notice } from "./notice.js";
import { student } from "./signin.js";

export const teacherSignIn = "/v1/auth/oidc/login?return_to=/app/teacher";

export function landing(root: HTMLElement): void {
  document.title = "Prime games";
  const name = lastName();

  const code = h("input", { name: "code", required: true, autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: 20 });
  const joinName = nameInput(name);
  const joinError = errorLine();
  const join = h("form", { "aria-labelledby": "join-heading", novalidate: true },
    h("h2", { id: "join-heading" }, t("Join a game")),
    field(t("Invite code"), code), field(t("Your name"), joinName),
    h("button", { type: "submit" }, t("Join")), joinError);
  join.addEventListener("submit", (e) => {
    e.preventDefault();
    void busy(join, joinError, async () => {
      const invite = code.value.trim().toUpperCase();
      if (!invite || !joinName.value.trim()) throw new Refusal(t("Type the invite code and your name."));
      rememberName(joinName.value.trim());
      const joined = unwrap(await api.POST("/v1/games/join", { body: { invite_code: invite, name: joinName.value.trim() } }));
      saveSeat({ gameId: joined.game.id, token: joined.seat.token, name: joined.seat.name, kind: joined.game.game, savedAt: Date.now() });
      go(`/app/game/${joined.game.id}`);
    });
  });

  const versusName = nameInput(name);
  const versusKind = kindSelect();
  const versusError = errorLine();
  const versus = h("form", { "aria-labelledby": "versus-heading", novalidate: true },
    h("h2", { id: "versus-heading" }, t("Play against the computer")),
    field(t("Your name"), versusName), field(t("Game"), versusKind),
    h("button", { type: "submit" }, t("Play against the computer")), versusError);
  versus.addEventListener("submit", (e) => {
    e.preventDefault();
    void busy(versus, versusError, async () => {
      const you = versusName.value.trim();
      if (!you) throw new Refusal(t("Type your name."));
      rememberName(you);
      const kind = versusKind.value === "primed" ? "primed" : "prime-climb";
      const created = unwrap(await api.POST("/v1/games", {
        body: { game: kind, players: [{ name: you }, { bot: "expert", name: t("Computer (expert)") }], options: { bot_delay_ms: 600 } },
      }));
      const seat = created.seats[0];
      if (!seat) throw new Refusal(t("The server gave no seat."));
      saveSeat({ gameId: created.game.id, token: seat.token, name: seat.name, kind, savedAt: Date.now() });
      go(`/app/game/${created.game.id}`);
    });
  });

  const openName = nameInput(name);
  const openKind = kindSelect();
  const openError = errorLine();
  const open = h("form", { "aria-labelledby": "open-heading", novalidate: true },
    h("h2", { id: "open-heading" }, t("Play with a classmate")),
    h("p", {}, t("Open a game, then give its invite code to a classmate.")),
    field(t("Your name"), openName), field(t("Game"), openKind),
    h("button", { type: "submit" }, t("Open a game")), openError);
  open.addEventListener("submit", (e) => {
    e.preventDefault();
    void busy(open, openError, async () => {
      const you = openName.value.trim();
      if (!you) throw new Refusal(t("Type your name."));
      rememberName(you);
      const kind = openKind.value === "primed" ? "primed" : "prime-climb";
      const lobby = unwrap(await api.POST("/v1/games", { body: { game: kind, seats: 2 } }));
      const inviteCode = lobby.invite_code ?? "";
      const joined = unwrap(await api.POST("/v1/games/join", { body: { invite_code: inviteCode, name: you } }));
      saveSeat({
        gameId: lobby.game.id, token: joined.seat.token, name: joined.seat.name, kind,
        creatorToken: lobby.creator_token, inviteCode, savedAt: Date.now(),
      });
      go(`/app/game/${lobby.game.id}`);
    });
  });

  const card = h("section", { "aria-labelledby": "card-heading" },
    h("h2", { id: "card-heading" }, t("Have a sign-in card from your teacher?")),
    h("p", {}, h("a", { href: "/app/sign-in", "data-nav": "" }, t("Sign in with your card"))),
    student() ? h("p", {}, h("a", { href: "/app/me", "data-nav": "" }, t("Your class games"))) : null);

  const mine = seats();
  const resume = mine.length === 0 ? null : h("section", { "aria-labelledby": "mine-heading" },
    h("h2", { id: "mine-heading" }, t("Your games")),
    h("ul", { class: "links" }, mine.map((s) => h("li", {},
      h("a", { href: `/app/game/${s.gameId}`, "data-nav": "" }, t("{game} as {name}", { game: kindNames[s.kind] ?? s.kind, name: s.name }))))));

  root.replaceChildren(
    h("header", { class: "top" }, h("span", { class: "brand" }, "Prime games"),
      h("a", { href: teacherSignIn, class: "teacher" }, t("Teacher sign-in"))),
    h("main", { id: "main", tabindex: -1 },
      h("h1", {}, t("Play Prime games")), notice(),
      h("div", { class: "landing-grid" }, join, versus, open), card, resume));
  code.focus();
}

function nameInput(value: string): HTMLInputElement {
  return h("input", { name: "name", required: true, autocomplete: "nickname", maxlength: 40, value });
}

function kindSelect(): HTMLSelectElement {
  return h("select", { name: "game" },
    h("option", { value: "prime-climb" }, "Prime Climb"),
    h("option", { value: "primed" }, "Primed"));
}

function errorLine(): HTMLParagraphElement {
  return h("p", { class: "error", role: "alert" });
}

/** busy runs work with the form's button disabled and says in the form what went wrong. */
async function busy(form: HTMLFormElement, error: HTMLElement, work: () => Promise<void>): Promise<void> {
  const button = form.querySelector("button");
  error.textContent = "";
  if (button) button.disabled = true;
  try {
    await work();
  } catch (err) {
    error.textContent = sentence(err);
  } finally {
    if (button) button.disabled = false;
  }
}
