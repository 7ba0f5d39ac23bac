// The game page, /app/game/{id}: the position (the service's SVG picture, with its own title and
// description as the alternative text), whose turn it is, Roll, the legal moves, Hint, the cards
// in hand, live updates from the game's event stream (resumed by the client after a drop), the end
// and a rematch. Everything is read and done with the seat token this browser kept in localStorage.
import { ProblemError, unwrap, type Game, type PrimeGamesClient } from "@primegames/client";

import { api, forgetSeat, kindNames, saveSeat, seatOf, sentence, type SeatRecord } from "./api.js";
import { go, h, replace } from "./dom.js";
import { and, lang, t } from "./i18n.js";

type Legal = { type?: string; action: Record<string, unknown>; description?: string | null };

export function gamePage(root: HTMLElement, gameId: string): () => void {
  const seat = seatOf(gameId);
  if (!seat) {
    root.replaceChildren(topBar(), h("main", { id: "main", tabindex: -1 },
      h("h1", {}, t("This game is not on this device")),
      h("p", {}, t("Join it again with its invite code, or ask your teacher.")),
      h("p", {}, h("a", { href: "/app/", "data-nav": "" }, t("Join a game")))));
    return () => {};
  }
  return new GamePage(root, seat).start();
}

function topBar(): HTMLElement {
  return h("header", { class: "top" }, h("a", { href: "/app/", "data-nav": "", class: "brand" }, "Prime games"));
}

class GamePage {
  private readonly client: PrimeGamesClient;
  private readonly stop = new AbortController();
  private game: Game | undefined;
  private hint: { text: string; action: string; version: number } | undefined;
  private pictureURL = "";
  private pictureVersion = -1;
  private refreshing: Promise<void> | undefined;
  private again = false;
  private acting = false;
  private timer: number | undefined;
  /** Set once the seat can do nothing more here (its token ended, the game gone): nothing is asked again. */
  private over = false;
  /** Waiting to follow the stream again after the connection was lost: a timer and the browser's online event. */
  private retry: number | undefined;
  private readonly online = () => this.followAgain();

  private readonly heading = h("h1", {});
  private readonly status = h("p", { class: "status", role: "status", "aria-live": "polite" });
  private readonly lobby = h("div", { class: "lobby" });
  private readonly picture = h("img", { class: "picture", alt: "", width: 980, height: 660 });
  private readonly controls = h("div", { class: "controls" });
  private readonly error = h("p", { class: "error", role: "alert" });

  constructor(private readonly root: HTMLElement, private readonly seat: SeatRecord) {
    this.client = api.withToken(seat.token);
  }

  start(): () => void {
    document.title = `${kindNames[this.seat.kind] ?? t("Game")} · Prime games`;
    this.heading.textContent = kindNames[this.seat.kind] ?? t("Game");
    this.root.replaceChildren(topBar(), h("main", { id: "main", tabindex: -1, class: "game" },
      this.heading, this.status, this.error, this.lobby,
      h("div", { class: "table" }, h("figure", { class: "position" }, this.picture), this.controls)));
    void this.refresh().then(() => this.follow());
    return () => {
      this.stop.abort();
      window.clearTimeout(this.timer);
      window.clearTimeout(this.retry);
      window.removeEventListener("online", this.online);
      if (this.pictureURL) URL.revokeObjectURL(this.pictureURL);
    };
  }

  /** follow reads the game's stream until its end; each event brings the game up to date. When
   * the token's authority ends (a `revoked` message) the page says why and stops; when the
   * connection is lost (the client gave up after its own reconnections) it says so and follows
   * again once the browser is online or in a while, without a reload. */
  private async follow(): Promise<void> {
    if (this.over || this.stop.signal.aborted) return;
    // Back after a lost connection: the line that said so goes, and the game is read again.
    const onConnect = () => {
      if (this.error.dataset["lost"] === undefined) return;
      delete this.error.dataset["lost"];
      this.error.textContent = "";
      void this.refresh();
    };
    try {
      for await (const message of this.client.followGame(this.seat.gameId, { signal: this.stop.signal, onConnect })) {
        if (message.event === "revoked") {
          this.end(revokedSentence(message.data.reason));
          return;
        }
        void this.refresh();
      }
    } catch (err) {
      if (this.stop.signal.aborted || this.over) return;
      if (err instanceof ProblemError && [401, 403, 404, 410].includes(err.status)) {
        this.end(t("This game is no longer there, or no longer open on this device."));
        return;
      }
      this.error.textContent = t("The connection was lost. Trying again…");
      this.error.dataset["lost"] = "";
      window.addEventListener("online", this.online);
      this.retry = window.setTimeout(this.online, 20_000);
      return;
    }
    delete this.error.dataset["lost"];
    void this.refresh();
  }

  /** followAgain follows the stream again after the connection was lost, once. */
  private followAgain(): void {
    window.clearTimeout(this.retry);
    window.removeEventListener("online", this.online);
    if (this.over || this.stop.signal.aborted) return;
    void this.refresh().then(() => this.follow());
  }

  /** end says plainly why the seat can do nothing more here, forgets its token and offers the way back. */
  private end(why: string): void {
    if (this.over) return;
    this.over = true;
    window.clearTimeout(this.timer);
    forgetSeat(this.seat.gameId);
    delete this.error.dataset["lost"];
    this.error.textContent = why;
    this.say("");
    replace(this.controls);
    replace(this.lobby, h("p", {}, h("a", { href: "/app/", "data-nav": "" }, t("Back to the start"))));
  }

  /** say sets the live status line only when its sentence changes: a screen reader hears each once. */
  private say(text: string): void {
    if (this.status.textContent !== text) this.status.textContent = text;
  }

  /** refresh reads the game (with the seat's legal actions) and its picture; calls made while one runs coalesce into one more. */
  private refresh(): Promise<void> {
    if (this.over) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        try {
          const game = unwrap(await this.client.GET("/v1/games/{id}", {
            params: { path: { id: this.seat.gameId }, query: { include: "legal_actions" } },
            signal: this.stop.signal,
          }));
          this.show(game);
          await this.drawPicture(game);
        } catch (err) {
          if (this.stop.signal.aborted || this.over) return;
          if (err instanceof ProblemError && [401, 403, 404, 410].includes(err.status)) {
            this.end(t("This game is no longer there, or no longer open on this device."));
            return;
          }
          const why = sentence(err);
          if (this.error.dataset["lost"] === undefined && this.error.textContent !== why) this.error.textContent = why;
          // A lobby, or a finished game waiting for its rematch, is looked at again all the same.
          if (this.game?.status === "lobby" || (this.game?.status === "finished" && !(this.game as { rematch?: string }).rematch)) this.poll(5000);
        }
      } while (this.again && !this.stop.signal.aborted && !this.over);
    })().finally(() => { this.refreshing = undefined; });
    return this.refreshing;
  }

  /** poll looks again in a while: for players joining a lobby, and for a rematch after the end. */
  private poll(ms: number): void {
    window.clearTimeout(this.timer);
    if (this.over) return;
    this.timer = window.setTimeout(() => void this.refresh(), ms);
  }

  private async drawPicture(game: Game): Promise<void> {
    if (game.status === "lobby" || game.version <= this.pictureVersion) return;
    const layout = matchMedia("(max-width: 700px)").matches ? "phone" : "desktop";
    const answer = await this.client.GET("/v1/games/{id}/picture.svg", {
      params: { path: { id: game.id }, query: { layout } },
      parseAs: "text",
      signal: this.stop.signal,
    });
    const svg = unwrap(answer) as unknown as string;
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const title = doc.querySelector("title")?.textContent ?? "";
    const desc = doc.querySelector("desc")?.textContent ?? "";
    const root = doc.documentElement;
    const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    this.picture.width = Number(root.getAttribute("width")) || 980;
    this.picture.height = Number(root.getAttribute("height")) || 660;
    this.picture.alt = [title, desc].filter(Boolean).join(". ");
    this.picture.src = url;
    if (this.pictureURL) URL.revokeObjectURL(this.pictureURL);
    this.pictureURL = url;
    this.pictureVersion = game.version;
  }

  private show(game: Game): void {
    // A read that left before an action and came back after it shows an older version: keep the newer.
    if (this.over || (this.game && this.game.id === game.id && game.version < this.game.version)) return;
    this.game = game;
    const mine = game.you?.seat ?? null;
    const name = (seat: number) => game.seats.find((s) => s.seat === seat)?.name ?? t("Seat {number}", { number: seat + 1 });
    const legal = (game.legal_actions?.actions ?? []) as Legal[];
    if (this.hint && this.hint.version !== game.version) this.hint = undefined;

    replace(this.lobby);
    switch (game.status) {
      case "lobby": {
        this.say(t("Waiting for players: {n} of {total} joined.", { n: game.seats.length, total: game.seat_count }));
        const full = game.seats.length >= game.seat_count;
        replace(this.lobby,
          this.seat.inviteCode ? h("p", { class: "invite" }, t("Give your classmate this invite code:"), " ", h("output", { "aria-label": t("Invite code") }, this.seat.inviteCode)) : null,
          h("ul", { "aria-label": t("Players") }, game.seats.map((s) => h("li", {}, s.name))),
          this.seat.creatorToken && full ? h("button", { type: "button", onclick: () => void this.startGame() }, t("Start the game")) : null);
        this.poll(1500);
        break;
      }
      case "active": {
        const toAct = game.turn?.to_act ?? [];
        this.say(mine !== null && toAct.includes(mine)
          ? t("Your turn, {name}.", { name: name(mine) })
          : toAct.length > 0 ? t("Waiting for {names}.", { names: and(toAct.map(name)) }) : t("Waiting for the next turn."));
        break;
      }
      case "finished": {
        const winners = game.winners ?? [];
        this.say(mine !== null && winners.includes(mine)
          ? t("Game over. You won!")
          : winners.length === 1 ? t("Game over. {name} won.", { name: name(winners[0] ?? 0) })
            : winners.length > 1 ? t("Game over. {names} won.", { names: and(winners.map(name)) }) : t("Game over. Nobody won."));
        break;
      }
      default:
        this.say(t("This game was stopped before its end."));
    }

    const roll = legal.find((l) => l.type === "roll");
    const keepers = legal.filter((l) => l.type === "keeper");
    const moves = legal.filter((l) => l.type !== "roll" && l.type !== "keeper");
    const hand = handOf(game, mine);
    const held = keepersOf(game, mine);
    const canHint = legal.length > 0 && (game.options as { hints?: boolean }).hints !== false;
    replace(this.controls,
      roll ? h("button", { type: "button", class: "primary", onclick: () => void this.act(roll.action) }, t("Roll")) : null,
      canHint ? h("button", { type: "button", onclick: () => void this.askHint() }, t("Hint")) : null,
      this.hint ? h("p", { class: "hint", role: "status", "aria-label": t("Hint"), id: "hint" }, t("Hint: {text}", { text: this.hint.text })) : null,
      moves.length > 0 ? [h("h2", { id: "moves-heading" }, t("Your moves")),
        h("ul", { "aria-label": t("Moves"), class: "moves" }, moves.map((l) => h("li", {},
          h("button", {
            type: "button",
            class: this.hint?.action === JSON.stringify(l.action) ? "hinted" : null,
            "aria-describedby": this.hint?.action === JSON.stringify(l.action) ? "hint" : null,
            onclick: () => void this.act(l.action),
          }, describe(l)))))] : null,
      hand.length > 0 ? [h("h2", {}, t("Your cards")),
        h("ul", { "aria-label": t("Your cards"), class: "cards" }, hand.map((card) => {
          const play = legal.find((l) => sameCard(l, card));
          return h("li", {}, h("button", {
            type: "button",
            "aria-disabled": play ? null : "true",
            title: play ? describe(play) : t("You cannot play this card now."),
            onclick: () => { if (play) void this.act(play.action); },
          }, cardName(card)));
        }))] : null,
      held.length > 0 ? [h("h2", {}, t("Your keeper cards")),
        h("ul", { "aria-label": t("Keeper cards"), class: "cards" }, held.map((card) => {
          const play = keepers.find((l) => l.action["card"] === card);
          return h("li", {}, h("button", {
            type: "button",
            "aria-disabled": play ? null : "true",
            title: play ? describe(play) : t("You cannot play this card on its own now."),
            onclick: () => { if (play) void this.act(play.action); },
          }, t("Keeper card: {card}", { card: cardWords(card) })));
        }))] : null,
      game.status === "finished" ? this.endControls(game) : null);
    if (this.acting) this.busy(true);
  }

  private endControls(game: Game): HTMLElement {
    const next = (game as { rematch?: string }).rematch;
    if (!next) this.poll(3000);
    return h("div", { class: "end" },
      next
        ? h("button", { type: "button", class: "primary", onclick: () => this.openRematch(next) }, t("Play the rematch"))
        : h("button", { type: "button", class: "primary", onclick: () => void this.rematch() }, t("Rematch")),
      h("a", { href: "/app/", "data-nav": "" }, t("Back to the start")));
  }

  private async act(action: Record<string, unknown>): Promise<void> {
    if (this.acting) return;
    this.acting = true;
    this.busy(true);
    this.error.textContent = "";
    try {
      const answer = unwrap(await this.client.POST("/v1/games/{id}/actions", {
        params: { path: { id: this.seat.gameId }, query: { include: "legal_actions" }, header: { "Idempotency-Key": crypto.randomUUID() } },
        body: action as never,
      }));
      this.hint = undefined;
      this.acting = false; // the answer's controls are for the next action
      this.show(answer.game);
      await this.drawPicture(answer.game);
      this.focusNext();
    } catch (err) {
      this.error.textContent = sentence(err);
      this.busy(false);
      void this.refresh();
    } finally {
      this.acting = false;
    }
  }

  /** busy marks the controls unusable while an action is on its way (a second tap would act on what is gone). */
  private busy(on: boolean): void {
    for (const button of this.controls.querySelectorAll<HTMLButtonElement>("button")) {
      if (on && !button.hasAttribute("aria-disabled")) {
        button.setAttribute("aria-disabled", "true");
        button.dataset["busy"] = "";
      } else if (!on && button.dataset["busy"] !== undefined) {
        button.removeAttribute("aria-disabled");
        delete button.dataset["busy"];
      }
    }
  }

  /** focusNext keeps a keyboard user in the controls once the buttons they used are redrawn. */
  private focusNext(): void {
    const first = this.controls.querySelector<HTMLButtonElement>("button:not([aria-disabled])");
    (first ?? this.status).focus({ preventScroll: true });
  }

  private async askHint(): Promise<void> {
    if (this.acting) return;
    try {
      const hint = unwrap(await this.client.GET("/v1/games/{id}/hint", { params: { path: { id: this.seat.gameId } } }));
      this.hint = { text: hint.explanation ?? "", action: JSON.stringify(hint.action), version: hint.version };
      if (this.game) this.show(this.game);
    } catch (err) {
      this.error.textContent = sentence(err);
    }
  }

  private async startGame(): Promise<void> {
    try {
      unwrap(await api.withToken(this.seat.creatorToken).POST("/v1/games/{id}/start", { params: { path: { id: this.seat.gameId } } }));
      void this.refresh();
    } catch (err) {
      this.error.textContent = sentence(err);
    }
  }

  private async rematch(): Promise<void> {
    try {
      const next = unwrap(await this.client.POST("/v1/games/{id}/rematch", { params: { path: { id: this.seat.gameId } } }));
      this.openRematch(next.id);
    } catch (err) {
      this.error.textContent = sentence(err);
    }
  }

  /** openRematch goes to the rematch: the seat's token acts for the same player there. */
  private openRematch(id: string): void {
    saveSeat({ gameId: id, token: this.seat.token, name: this.seat.name, kind: this.seat.kind, savedAt: Date.now() });
    forgetSeat(this.seat.gameId);
    go(`/app/game/${id}`);
  }
}

/** revokedSentence says why a stream ended with a `revoked` message, in the child's words. */
function revokedSentence(reason: string): string {
  switch (reason) {
    case "seat_left":
      return t("You left this game.");
    case "token_revoked":
      return t("You were signed out, so this game is closed on this device.");
    default:
      return t("This seat is no longer yours in this game.");
  }
}

function handOf(game: Game, seat: number | null): number[] {
  if (seat === null || game.game !== "primed" || !game.state) return [];
  return game.state.hands.find((hand) => hand.seat === seat)?.cards ?? [];
}

function keepersOf(game: Game, seat: number | null): string[] {
  if (seat === null || game.game !== "prime-climb" || !game.state) return [];
  return game.state.players.find((p) => p.seat === seat)?.keepers.map((k) => String(k.card)) ?? [];
}

/**
 * cardWords is a keeper card's name in words, as the server's sentences name it: plus_minus_5 →
 * "plus or minus 5", send_to_start → "Send to Start" ("A la Salida", …), curse → "Curse".
 */
function cardWords(card: string): string {
  const plusMinus = /^plus_minus_(\d+)$/.exec(card);
  if (plusMinus) return t("plus or minus {number}", { number: Number(plusMinus[1]) });
  switch (card) {
    case "send_to_start":
      return t("Send to Start");
    case "curse":
      return t("Curse");
    default:
      return card.replaceAll("_", " ");
  }
}

/** sameCard tells whether l plays card alone (Primed's legal actions carry their type in the action only). */
function sameCard(l: Legal, card: number): boolean {
  const cards = l.action["cards"];
  return (l.type ?? l.action["type"]) === "play" && Array.isArray(cards) && cards.length === 1 && cards[0] === card;
}

function cardName(card: number): string {
  return t("Card {number}", { number: card });
}

/** describe is a legal action in words: the server's description, or one made from the action. */
export function describe(l: Legal): string {
  if (l.description) return l.description;
  const a = l.action;
  switch (a["type"]) {
    case "play":
      return t("Play {cards}", { cards: (a["cards"] as number[]).map((c) => c.toLocaleString(lang)).reduce((first, next) => t("{first}, then {next}", { first, next })) });
    case "draw":
      return t("Draw a card");
    case "pass":
      return t("Keep the drawn card");
    case "keeper":
      return t("Play the keeper card {card}", { card: cardWords(String(a["card"])) });
    default:
      return String(a["type"]);
  }
}
