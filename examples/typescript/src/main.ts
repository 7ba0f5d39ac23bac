// A client of the Prime games API written from openapi.yaml alone: it opens a Prime Climb and a
// Primed lobby, seats two players in each, plays both games to the end by choosing from the legal
// actions, and follows each game's event stream and the player stream of its seat 0. Every value
// is typed from the contract by @primegames/client (clients/typescript) and narrowed by its `game`
// or `type` field.
//
//	PRIMEGAMES_URL=http://localhost:8080 npm start
import { createClient, isPrimeClimb, type PrimeGamesClient, type Schemas } from "@primegames/client";

import { checkResume, followGame, followPlayer, type PlayerSummary, type StreamSummary } from "./events.js";

type Game = Schemas["Game"];
type GameKind = Schemas["GameKind"];
type Action = Schemas["Action"];
type LegalActions = Schemas["LegalActions"];
type HistoryEntry = Schemas["HistoryEntry"];
type PrimeClimbLegalAction = Schemas["PrimeClimbLegalAction"];
type PrimedLegalAction = Schemas["PrimedLegalAction"];

const baseUrl = process.env.PRIMEGAMES_URL;
if (!baseUrl) {
  console.error("set PRIMEGAMES_URL to the server's address, e.g. http://localhost:8080");
  process.exit(2);
}
// patientFetch waits as the server asks when it answers 429 rate_limited, then asks again.
async function patientFetch(request: Request): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(request.clone());
    if (response.status !== 429 || attempt === 10) return response;
    const seconds = Number(response.headers.get("Retry-After") ?? "1");
    await new Promise((resolve) => setTimeout(resolve, 1000 * (Number.isFinite(seconds) ? seconds : 1)));
  }
}
// A client without a token; each seat's and the creator's are made from it with withToken.
const api = createClient({ baseUrl, fetch: patientFetch });

// Enough for any game these choices play: a game that runs longer is a bug worth stopping for.
const maxActions = 5000;

interface Table {
  id: string;
  game: Game;
  seats: PrimeGamesClient[]; // by seat
}

// openLobby creates a private game with open seats, seats one player in each with its invite code
// and starts it.
async function openLobby(request: Schemas["CreateGameRequest"], players: string[]): Promise<Table> {
  const created = await api.POST("/v1/games", { body: { ...request, seats: players.length } });
  if (!created.data) throw new Error(`create ${request.game}: ${describe(created.error)}`);
  const id = created.data.game.id;
  const seats: PrimeGamesClient[] = [];
  for (const name of players) {
    const invite_code = created.data.invite_code ?? "";
    const joined = await api.POST("/v1/games/join", { body: { invite_code, name } });
    if (!joined.data) throw new Error(`join ${name}: ${describe(joined.error)}`);
    seats[joined.data.seat.seat] = api.withToken(joined.data.seat.token);
  }
  const creator = api.withToken(created.data.creator_token);
  const started = await creator.POST("/v1/games/{id}/start", { params: { path: { id } } });
  if (!started.data) throw new Error(`start: ${describe(started.error)}`);
  return { id, game: started.data, seats };
}

// play acts for whichever seat is to act until the game is over; it returns the number of actions
// and of the turns that came to seat 0 (its seat was to act after an action and not before).
async function play(table: Table): Promise<{ actions: number; seat0Turns: number }> {
  let actions = 0;
  let seat0Turns = 0;
  const seat0ToAct = (game: Game) => game.status === "active" && (game.turn?.to_act.includes(0) ?? false);
  while (table.game.status === "active") {
    if (++actions > maxActions) throw new Error(`${table.game.game} ${table.id}: not over after ${maxActions} actions`);
    const seat = table.game.turn?.to_act[0];
    const client = seat === undefined ? undefined : table.seats[seat];
    if (seat === undefined || client === undefined) throw new Error(`no seat to act in ${JSON.stringify(table.game.turn)}`);
    const legal = await client.GET("/v1/games/{id}/legal-actions", { params: { path: { id: table.id } } });
    if (!legal.data) throw new Error(`legal actions: ${describe(legal.error)}`);
    const action = choose(legal.data);
    const acted = await client.POST("/v1/games/{id}/actions", { params: { path: { id: table.id } }, body: action });
    if (!acted.data) throw new Error(`seat ${seat} sent ${JSON.stringify(action)}: ${describe(acted.error)}`);
    report(acted.data.entry);
    if (seat0ToAct(acted.data.game) && !seat0ToAct(table.game)) seat0Turns++;
    table.game = acted.data.game;
  }
  return { actions, seat0Turns };
}

// choose picks one legal action; the list's `game` tells which kind's list it is.
function choose(legal: LegalActions): Action {
  let picked: PrimeClimbLegalAction | PrimedLegalAction | undefined;
  switch (legal.game) {
    case "prime-climb":
      picked = bestClimb(legal.actions);
      break;
    case "primed":
      picked = bestPrimed(legal.actions);
      break;
  }
  if (!picked) throw new Error(`seat ${legal.seat} has no legal action at version ${legal.version}`);
  return picked.action;
}

// bestClimb wins when it can, rolls when it must, and otherwise takes the move that brings the
// pawns furthest; keepers are left in hand.
function bestClimb(actions: PrimeClimbLegalAction[]): PrimeClimbLegalAction | undefined {
  let best: PrimeClimbLegalAction | undefined;
  let bestScore = -1;
  for (const entry of actions) {
    const action = entry.action;
    let score: number;
    switch (action.type) {
      case "roll":
      case "choose":
        score = 0;
        break;
      case "move":
        score = entry.wins ? Number.MAX_SAFE_INTEGER : (entry.ends ?? [0, 0]).reduce((a, b) => a + b, 0);
        break;
      case "keeper":
        continue;
    }
    if (score > bestScore) [best, bestScore] = [entry, score];
  }
  return best ?? actions[0];
}

// bestPrimed plays as many cards as it can, and draws or passes otherwise.
function bestPrimed(actions: PrimedLegalAction[]): PrimedLegalAction | undefined {
  let best: PrimedLegalAction | undefined;
  let most = -1;
  for (const entry of actions) {
    const cards = entry.action.type === "play" ? entry.action.cards.length : 0;
    if (cards > most) [best, most] = [entry, cards];
  }
  return best;
}

// report prints what one action did, read from the outcome of the entry's kind.
function report(entry: HistoryEntry): void {
  switch (entry.game) {
    case "prime-climb": {
      const { outcome } = entry;
      if ("resigned" in outcome) return reportResignation(entry, outcome);
      if ("end_reason" in outcome) return log(entry, "aborted: nobody acted for too long");
      if (entry.action.type === "move") {
        for (const step of outcome.steps) log(entry, step.equation);
        if (outcome.draw?.card) log(entry, `drew ${outcome.draw.card}: ${outcome.draw.effect}`);
      }
      if (outcome.winner !== null) log(entry, `seat ${outcome.winner} wins`);
      break;
    }
    case "primed": {
      const { outcome } = entry;
      if ("resigned" in outcome) return reportResignation(entry, outcome);
      if ("end_reason" in outcome) return log(entry, "aborted: nobody acted for too long");
      if (outcome.played) log(entry, outcome.played.equation);
      if (outcome.round_ended) log(entry, `round ${outcome.round_ended.round} ends: totals ${outcome.round_ended.totals.join(", ")}`);
      if (outcome.game_ended) log(entry, `winners: seats ${outcome.game_ended.winners.join(", ")}`);
      break;
    }
  }
}

// reportResignation prints a resignation (G-3), an entry of the same shape in every kind of game.
function reportResignation(entry: HistoryEntry, outcome: Schemas["ResignOutcome"]): void {
  if (outcome.reason === "timeouts") log(entry, `seat ${outcome.resigned} ran out of time three turns in a row (G-4)`);
  if (outcome.bot) log(entry, `seat ${outcome.resigned} resigned; the computer (${outcome.bot}) plays on`);
  else log(entry, `seat ${outcome.resigned} resigned; winners: seats ${(outcome.winners ?? []).join(", ")}`);
}

// log prints a line about an entry; the server's own action for a player out of time says so (G-4).
function log(entry: HistoryEntry, text: string): void {
  const timeout = entry.timeout ? " (time ran out: the server played)" : "";
  if (process.env.VERBOSE) console.log(`  ${entry.game} #${entry.seq} seat ${entry.seat}${timeout}: ${text}`);
}

// describeFinal says how a game ended, from its state narrowed by the game's kind (isPrimeClimb
// narrows as a switch on `game.game` does).
function describeFinal(game: Game): string {
  if (isPrimeClimb(game)) {
    const pawns = game.state?.players.map((p) => `seat ${p.seat} [${p.pawns.join(", ")}]`) ?? [];
    return `winner seat ${game.state?.winner}, pawns ${pawns.join("; ")}`;
  }
  const scores = game.state?.scores;
  return `winners seats ${scores?.winners.join(", ")}, totals ${scores?.totals.join(", ")} after ${scores?.rounds.length} rounds`;
}

function describe(problem: Schemas["Problem"] | undefined): string {
  return problem ? `${problem.status} ${problem.code}: ${problem.detail ?? problem.title}` : "no problem document";
}

async function history(table: Table): Promise<number> {
  const got = await api.GET("/v1/games/{id}/actions", { params: { path: { id: table.id }, query: { limit: 1 } } });
  if (!got.data) throw new Error(`history: ${describe(got.error)}`);
  // The operation also answers NDJSON (a string) to Accept: application/x-ndjson; this client asks for JSON.
  if (typeof got.data === "string") throw new Error("history: NDJSON where JSON was asked for");
  const first = got.data.items[0];
  if (!first || first.action.type !== "start") throw new Error("the history does not begin with the start");
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: { limit: number; cursor?: string } = cursor === null ? { limit: 200 } : { limit: 200, cursor };
    const page = await api.GET("/v1/games/{id}/actions", { params: { path: { id: table.id }, query } });
    if (!page.data || typeof page.data === "string") throw new Error(`history: ${describe(page.error)}`);
    count += page.data.items.length;
    cursor = page.data.next_cursor;
  } while (cursor !== null);
  return count;
}

async function main(): Promise<void> {
  const kinds: { request: Schemas["CreateGameRequest"]; players: string[] }[] = [
    { request: { game: "prime-climb", options: { prime_cards: true } }, players: ["Ada", "Ben"] },
    { request: { game: "primed", options: { rounds: 2, multi_card: true } }, players: ["Cy", "Di"] },
  ];
  const results: {
    kind: GameKind;
    actions: number;
    seat0Turns: number;
    stream: StreamSummary;
    player: PlayerSummary;
    entries: number;
    resumedFrom: string[];
    final: string;
  }[] = [];
  for (const { request, players } of kinds) {
    const table = await openLobby(request, players);
    const stream = followGame(api, table.id);
    const seat0 = table.seats[0];
    if (seat0 === undefined) throw new Error("no client for seat 0");
    const player = await followPlayer(seat0, table.id); // open before the first action
    const { actions, seat0Turns } = await play(table);
    const summary = await stream;
    const entries = await history(table);
    const resumedFrom = await checkResume(api, table.id, entries);
    results.push({
      kind: table.game.game, actions, seat0Turns, stream: summary, player: await player.summary, entries, resumedFrom,
      final: describeFinal(table.game),
    });
  }
  let failed = false;
  for (const r of results) {
    console.log(`${r.kind}: ${r.actions} actions; ${r.final}`);
    console.log(`  events: ${r.stream.actions} action events (last id ${r.stream.lastId}), end: ${r.stream.end?.status}`);
    // The start and every action, each delivered once, then the end.
    if (r.stream.actions !== r.actions + 1 || r.entries !== r.actions + 1 || r.stream.end?.status !== "finished") {
      console.error(`  the stream delivered ${r.stream.actions} entries and the history holds ${r.entries}; want ${r.actions + 1} each, then the end`);
      failed = true;
    }
    // A broken connection is resumed after the last id read (the first line: entry 1).
    const resumes = r.resumedFrom.map((u) => new URL(u).searchParams.get("last_event_id"));
    console.log(`  resumed after a broken connection: last_event_id ${resumes.join(", then ")}`);
    if (resumes.join(" ") !== "0 1") {
      console.error(`  the stream was asked for with last_event_id ${resumes.join(", ")}; want 0, then 1`);
      failed = true;
    }
    // Seat 0's player stream: your_turn once per turn that came to it, then the result.
    console.log(`  seat 0's player stream: ${r.player.yourTurns} your_turn, game_ended ${r.player.ended?.status}`);
    if (r.player.yourTurns !== r.seat0Turns || r.player.ended?.status !== "finished") {
      console.error(`  seat 0 had ${r.seat0Turns} turns; its stream said your_turn ${r.player.yourTurns} times`);
      failed = true;
    }
  }
  if (failed) process.exit(1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
