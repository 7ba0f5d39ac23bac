// What the generated types allow and refuse, checked by `tsc --noEmit`: each @ts-expect-error line
// must be an error, or the compiler fails. Nothing here runs.
import type { components } from "@primegames/client";

type Schemas = components["schemas"];

// A move's steps need their fields: a die step die, pawn and op; a keeper step its card.
// @ts-expect-error an empty step is neither
export const emptyStep: Schemas["Action"] = { type: "move", steps: [{}] };
export const dieStep: Schemas["Action"] = { type: "move", steps: [{ die: 7, pawn: 0, op: "add" }] };
export const keeperStep: Schemas["Action"] = { type: "move", steps: [{ card: "curse", target_seat: 1 }] };
// A keeper takes the fields of its card.
// @ts-expect-error a curse names the seat it curses
export const curseWithoutTarget: Schemas["Action"] = { type: "keeper", card: "curse" };
// @ts-expect-error a plus/minus card names the pawn and the sign
export const plusMinusWithoutSign: Schemas["Action"] = { type: "move", steps: [{ card: "plus_minus_3", pawn: 0 }] };
export const sendToStart: Schemas["Action"] = { type: "keeper", card: "send_to_start", target_seat: 1, pawn: 0 };
// @ts-expect-error Primed plays name their cards
export const playWithoutCards: Schemas["Action"] = { type: "play" };

// Checking a game's kind narrows its options and its state.
export function roundsAndTop(game: Schemas["Game"]): [number | undefined, number | undefined] {
  if (game.game !== "primed") return [undefined, undefined];
  return [game.options.rounds, game.state?.top];
}
export function pawnsOfClimb(game: Schemas["Game"]): number[][] {
  if (game.game === "primed") {
    // @ts-expect-error a Primed table has no pawns
    return game.state?.players ?? [];
  }
  return game.state?.players.map((p) => p.pawns) ?? [];
}

// A history entry's kind narrows its action and outcome; the action's type narrows the action.
export function cardsPlayed(entry: Schemas["HistoryEntry"]): number[] {
  if (entry.game !== "primed") return [];
  if (entry.action.type === "play") return entry.action.cards;
  // A resignation (G-3) and the abort of an idle game, in any kind of game, have outcomes of their
  // own, told apart by `resigned` and `end_reason`.
  if ("resigned" in entry.outcome || "end_reason" in entry.outcome) return [];
  return entry.outcome.played?.cards ?? [];
}

// Both kinds list the seat to act the same way.
export function toAct(view: Schemas["GameView"]): number[] {
  return view.to_act;
}
