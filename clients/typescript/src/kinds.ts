// Per-kind narrowing. Every object whose fields depend on the kind of game (Game, HistoryEntry,
// LegalActions, GameView, Scores, …) carries `game`; a `switch (x.game)` narrows it, and so do
// these guards, for code that prefers a test to a switch.
import type { components } from "./schema.js";

export type Schemas = components["schemas"];
export type GameKind = Schemas["GameKind"];

/** Anything that names its kind of game. */
export interface OfKind {
  game: GameKind;
}

/** The part of a union `T` that belongs to the kind `K`: `KindOf<Game, "primed">` is a Primed game. */
export type KindOf<T extends OfKind, K extends GameKind> = Extract<T, { game: K }>;

export type Game = Schemas["Game"];
export type PrimeClimbGame = KindOf<Game, "prime-climb">;
export type PrimedGame = KindOf<Game, "primed">;
export type HistoryEntry = Schemas["HistoryEntry"];
export type LegalActions = Schemas["LegalActions"];
export type Action = Schemas["Action"];

/** isKind tells whether `value` is of the kind `kind`, narrowing it to that kind's fields. */
export function isKind<T extends OfKind, K extends GameKind>(value: T, kind: K): value is KindOf<T, K> {
  return value.game === kind;
}

/** isPrimeClimb narrows a game, history entry, legal-actions list or view to Prime Climb's. */
export function isPrimeClimb<T extends OfKind>(value: T): value is KindOf<T, "prime-climb"> {
  return isKind(value, "prime-climb");
}

/** isPrimed narrows a game, history entry, legal-actions list or view to Primed's. */
export function isPrimed<T extends OfKind>(value: T): value is KindOf<T, "primed"> {
  return isKind(value, "primed");
}
