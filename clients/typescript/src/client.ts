// The client: openapi-fetch typed by the contract's paths, with the base URL and a token set once,
// plus the streams of stream.ts.
import createFetchClient, { type Client } from "openapi-fetch";

import type { paths } from "./schema.js";
import {
  followClassroom,
  followGame,
  followPlayer,
  type ClassroomStreamEvent,
  type Fetch,
  type FollowOptions,
  type GameStreamEvent,
  type PlayerStreamEvent,
} from "./stream.js";

export interface ClientConfig {
  /** The server's address, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** A seat, creator, teacher, student, observer or admin token, sent as `Authorization: Bearer`. */
  token?: string | undefined;
  /** The fetch to call (the global one unless set): wrap it to retry, log or test. */
  fetch?: Fetch | undefined;
}

/**
 * A client of the Prime games API: every operation of openapi.yaml, typed (`client.GET`,
 * `client.POST`, … as openapi-fetch has them), with its token sent on every request unless the
 * request sets its own `Authorization`.
 */
export interface PrimeGamesClient extends Client<paths> {
  readonly baseUrl: string;
  readonly token: string | undefined;
  /** The same server with another token (a seat's, say): the client is cheap to make. */
  withToken(token: string | undefined): PrimeGamesClient;
  /** A game's events (`GET /v1/games/{id}/events`) until its `end`. */
  followGame(gameId: string, options?: FollowOptions): AsyncGenerator<GameStreamEvent>;
  /** A classroom's events (`GET /v1/classrooms/{id}/events`, a teacher token). */
  followClassroom(classroomId: string, options?: FollowOptions): AsyncGenerator<ClassroomStreamEvent>;
  /** The token's player events (`GET /v1/me/events`). */
  followPlayer(options?: FollowOptions): AsyncGenerator<PlayerStreamEvent>;
}

/** createClient makes a client of the server at `baseUrl` that sends `token`. */
export function createClient(config: ClientConfig): PrimeGamesClient {
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  const { token } = config;
  const fetch: Fetch = config.fetch ?? ((request) => globalThis.fetch(request));
  const api = createFetchClient<paths>({
    baseUrl,
    fetch,
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
  const target = { baseUrl, token, fetch };
  return {
    ...api,
    baseUrl,
    token,
    withToken: (other) => createClient({ ...config, token: other }),
    followGame: (gameId, options) => followGame(target, gameId, options),
    followClassroom: (classroomId, options) => followClassroom(target, classroomId, options),
    followPlayer: (options) => followPlayer(target, options),
  };
}
