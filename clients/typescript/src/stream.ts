// Event streams read as NDJSON (`Accept: application/x-ndjson`, one JSON message per line): each
// follow* function is an async iterator over a stream's messages, heartbeats skipped. When the
// connection drops before the stream is over it reconnects with `last_event_id` set to the last id
// received, so nothing is lost or repeated (a classroom's stream may repeat up to 10 s, as its
// docs say); so does a connection silent for longer than three heartbeats. Leaving the `for await`
// loop (or aborting `signal`) closes the connection.
import { ProblemError, type Problem } from "./problems.js";
import type { components } from "./schema.js";

type Schemas = components["schemas"];
/** A message of a game's stream: `action`, `end`, `error` or `revoked`, narrowed by `event`. */
export type GameStreamEvent = Schemas["GameStreamEvent"];
/** A message of a classroom's stream: those of a game's stream, and `assignment_done`, `assignment_due_soon`, narrowed by `event`. */
export type ClassroomStreamEvent = Schemas["ClassroomStreamEvent"];
/** A message of a player's stream (`GET /v1/me/events`): a player event, `assignment_done`, `assignment_due_soon`, `error` or `revoked`, narrowed by `event`. */
export type PlayerStreamEvent = Schemas["PlayerStreamEvent"];

export interface FollowOptions {
  /** Resume after this message's `id` (the last one your program handled). */
  lastEventId?: string | undefined;
  /** Aborting it ends the iteration (the loop throws the signal's reason). */
  signal?: AbortSignal | undefined;
  /** Called each time a connection is answered and the stream is open (a player's stream starts with what happens after that). */
  onConnect?: (() => void) | undefined;
  /** Connections in a row that may fail (refused, dropped, 429 or 503) before the iterator throws; 5 unless set. */
  reconnects?: number | undefined;
  /**
   * Milliseconds without a line (heartbeats count) after which the connection is taken for dead —
   * one that stalled without breaking, as after a phone changed networks — and the stream resumed
   * on a new one; 45 000 unless set (three of the server's heartbeats at its default 15 s), 0 never.
   */
  silence?: number | undefined;
}

/** The fetch a client calls: the global one, or one of your own (retries, logging, tests). */
export type Fetch = (request: Request) => Promise<Response>;

export interface StreamTarget {
  baseUrl: string;
  token: string | undefined;
  fetch: Fetch;
}

const playerEvents = new Set<string>(["game_started", "your_turn", "timed_out", "game_ended"]);

/** followGame reads a game's stream: every history entry as an `action`, then `end` (or `error`, or `revoked` once the token stops working), then stops. */
export function followGame(target: StreamTarget, gameId: string, options: FollowOptions = {}): AsyncGenerator<GameStreamEvent> {
  return follow(target, `/v1/games/${encodeURIComponent(gameId)}/events`, parseGameLine, (m) => m.event !== "action", options);
}

/**
 * followClassroom reads a classroom's stream (a teacher token): every game's entries and ends, and the assignments' events
 * (`assignment_done`, `assignment_due_soon`, which have no `id`); it stops only on `error`, or
 * on `revoked` (the token stopped working: follow again with the new one).
 */
export function followClassroom(target: StreamTarget, classroomId: string, options: FollowOptions = {}): AsyncGenerator<ClassroomStreamEvent> {
  return follow(target, `/v1/classrooms/${encodeURIComponent(classroomId)}/events`, parseClassroomLine, isLast, options);
}

/** followPlayer reads the token's player stream (`GET /v1/me/events`); it stops only on `error` or `revoked`. */
export function followPlayer(target: StreamTarget, options: FollowOptions = {}): AsyncGenerator<PlayerStreamEvent> {
  return follow(target, "/v1/me/events", parsePlayerLine, isLast, options);
}

/** isLast tells the messages after which a stream that stays open across games sends nothing more. */
function isLast(message: { event: string }): boolean {
  return message.event === "error" || message.event === "revoked";
}

async function* follow<M extends { event: string }>(
  target: StreamTarget,
  path: string,
  parse: (line: unknown) => M | undefined,
  last: (message: M) => boolean,
  options: FollowOptions,
): AsyncGenerator<M> {
  const { signal } = options;
  const reconnects = options.reconnects ?? 5;
  const silence = options.silence ?? 45_000;
  let lastEventId = options.lastEventId;
  let failures = 0;
  for (;;) {
    signal?.throwIfAborted();
    // Each connection has its own signal: the caller's abort, or the watchdog's when it falls silent.
    const connection = new AbortController();
    const onAbort = () => connection.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const watchdog = new Watchdog(silence, () => connection.abort(new Error(`GET ${path}: no line for ${silence} ms`)));
    try {
      const url = new URL(target.baseUrl.replace(/\/+$/, "") + path);
      if (lastEventId !== undefined) url.searchParams.set("last_event_id", lastEventId);
      const headers: Record<string, string> = { Accept: "application/x-ndjson" };
      if (target.token !== undefined) headers.Authorization = `Bearer ${target.token}`;
      let response: Response;
      try {
        response = await target.fetch(new Request(url, { headers, signal: connection.signal }));
      } catch (err) {
        if (signal?.aborted || ++failures > reconnects) throw err;
        await pause(backoff(failures), signal);
        continue;
      }
      if (!response.ok || !response.body) {
        const problem = await readProblem(response);
        if ((response.status === 429 || response.status === 503) && ++failures <= reconnects) {
          await pause(retryAfter(response) ?? backoff(failures), signal);
          continue;
        }
        throw new ProblemError(response.status, problem, `GET ${path}`);
      }
      options.onConnect?.();
      try {
        for await (const line of lines(response.body, connection.signal)) {
          watchdog.heard();
          const message = parse(JSON.parse(line));
          failures = 0;
          if (message === undefined) continue; // a heartbeat
          if ("id" in message && typeof message.id === "string") lastEventId = message.id;
          watchdog.stop(); // the time the caller takes over a message is not the server's silence
          yield message;
          if (last(message)) return;
          watchdog.heard();
        }
      } catch (err) {
        if (signal?.aborted || err instanceof SyntaxError || err instanceof UnexpectedLine) throw err;
        // the connection broke: reconnect below
      }
      if (++failures > reconnects) throw new Error(`GET ${path}: the stream closed ${failures} times in a row before it was over`);
      await pause(backoff(failures), signal);
    } finally {
      watchdog.stop();
      signal?.removeEventListener("abort", onAbort);
    }
  }
}

/** Watchdog calls dead once ms pass without heard() (never when ms is 0). */
class Watchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    private readonly ms: number,
    private readonly dead: () => void,
  ) {
    this.heard();
  }
  heard(): void {
    if (this.ms <= 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.dead, this.ms);
  }
  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * lines splits a body into its non-empty, newline-ended lines; leaving the loop cancels the body,
 * as does aborting signal (also for a fetch of the caller's that does not tie the body to it).
 */
async function* lines(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<string> {
  const reader = body.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener("abort", cancel, { once: true });
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line !== "") yield line;
      }
    }
    // What follows the last newline is a line cut short by a broken connection: the server ends
    // every line with one. It is dropped; the reconnection sends it again.
  } finally {
    signal.removeEventListener("abort", cancel);
    await reader.cancel().catch(() => undefined);
  }
}

class UnexpectedLine extends Error {}

// The parsers check what tells the messages apart (`event`, `id`, `data`); the rest is as the
// contract describes it.
function parseGameLine(line: unknown): GameStreamEvent | undefined {
  if (isHeartbeat(line)) return undefined;
  if (isGameStreamEvent(line)) return line;
  throw new UnexpectedLine(`unexpected line: ${JSON.stringify(line)}`);
}

function parseClassroomLine(line: unknown): ClassroomStreamEvent | undefined {
  if (isHeartbeat(line)) return undefined;
  if (isGameStreamEvent(line) || isAssignmentMessage(line)) return line;
  throw new UnexpectedLine(`unexpected line: ${JSON.stringify(line)}`);
}

function parsePlayerLine(line: unknown): PlayerStreamEvent | undefined {
  if (isHeartbeat(line)) return undefined;
  if (isPlayerStreamEvent(line)) return line;
  throw new UnexpectedLine(`unexpected line: ${JSON.stringify(line)}`);
}

function isHeartbeat(line: unknown): boolean {
  return isRecord(line) && line.event === "heartbeat";
}

function isGameStreamEvent(line: unknown): line is GameStreamEvent {
  if (!isRecord(line) || !isRecord(line.data)) return false;
  switch (line.event) {
    case "action":
      return typeof line.id === "string" && isRecord(line.data.entry) && typeof line.data.entry.game === "string";
    case "end":
      return typeof line.data.status === "string";
    case "error":
      return isProblem(line.data);
    case "revoked":
      return isRevoked(line.data);
    default:
      return false;
  }
}

function isRevoked(data: Record<string, unknown>): boolean {
  return typeof data.reason === "string";
}

const assignmentEvents = new Set<string>(["assignment_done", "assignment_due_soon"]);

function isAssignmentMessage(line: unknown): line is Schemas["AssignmentDoneMessage"] | Schemas["AssignmentDueSoonMessage"] {
  return isRecord(line) && isRecord(line.data) && typeof line.event === "string" && assignmentEvents.has(line.event) &&
    line.data.event === line.event && typeof line.data.assignment_id === "string";
}

function isPlayerStreamEvent(line: unknown): line is PlayerStreamEvent {
  if (!isRecord(line) || !isRecord(line.data)) return false;
  if (isAssignmentMessage(line)) return true;
  if (line.event === "error") return isProblem(line.data);
  if (line.event === "revoked") return isRevoked(line.data);
  return typeof line.event === "string" && playerEvents.has(line.event) && typeof line.id === "string" &&
    line.data.event === line.event && typeof line.data.game_id === "string";
}

function isProblem(value: unknown): value is Problem {
  return isRecord(value) && typeof value.code === "string" && typeof value.status === "number";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function readProblem(response: Response): Promise<Problem | undefined> {
  try {
    const body: unknown = await response.json();
    return isProblem(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

function retryAfter(response: Response): number | undefined {
  const seconds = Number(response.headers.get("Retry-After"));
  return response.headers.has("Retry-After") && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

// backoff: 1 s doubling to 15 s, with jitter, as the server's own streams wait out an outage.
function backoff(failures: number): number {
  const ms = Math.min(15_000, 1000 * 2 ** (failures - 1));
  return ms / 2 + Math.random() * (ms / 2);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
