// Type-checked (not run) against the types @hey-api/openapi-ts generates from openapi.yaml with its
// default settings (.ci/lint-contract): what a client written with another generator than
// openapi-typescript relies on. A request sets only the options it wants; a game, a history entry
// and legal actions narrow by `game`; actions narrow by `type`, a keeper by `card`; null is said.
import type { CreateGameRequest, Game, HistoryEntry, LegalActions, PrimeClimbAction } from "./out/types.gen";

export const create: CreateGameRequest = { game: "primed", options: { rounds: 2 } };

export function describe(game: Game): string {
  if (game.game === "primed") {
    const rounds: number = game.options.rounds; // answers carry every option
    return game.state === null ? "a lobby" : `round ${game.state.round} of ${rounds}`;
  }
  const turn = game.turn === null ? "nobody" : game.turn.to_act.join(", ");
  return game.state === null ? "a lobby" : `${game.state.players.length} players; to act: ${turn}`;
}

export function seq(entry: HistoryEntry): number {
  return entry.game === "prime-climb" ? entry.seq : entry.seq + 0;
}

export function actionCount(legal: LegalActions): number {
  return legal.game === "primed" ? legal.actions.length : legal.actions.filter((a) => a.wins).length;
}

export function keeperSign(action: PrimeClimbAction): string | undefined {
  if (action.type === "keeper" && action.card !== "send_to_start" && action.card !== "curse") {
    return action.sign;
  }
  return undefined;
}
