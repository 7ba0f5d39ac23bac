// @primegames/client: a typed client of the Prime games API.
export { createClient, type ClientConfig, type PrimeGamesClient } from "./client.js";
export {
  isKind,
  isPrimeClimb,
  isPrimed,
  type Action,
  type Game,
  type GameKind,
  type HistoryEntry,
  type KindOf,
  type LegalActions,
  type OfKind,
  type PrimeClimbGame,
  type PrimedGame,
  type Schemas,
} from "./kinds.js";
export { ProblemError, unwrap, type Answer, type Problem } from "./problems.js";
export type { ClassroomStreamEvent, Fetch, FollowOptions, GameStreamEvent, PlayerStreamEvent } from "./stream.js";
export type { components, operations, paths } from "./schema.js";
