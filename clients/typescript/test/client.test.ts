// The wrapper's own behaviour against a fake fetch (the real server is exercised by
// examples/typescript in CI): lines split and heartbeats skipped, resume after a broken
// connection, 429 waited out, refusals thrown as ProblemError, guards and unwrap.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createClient, isPrimeClimb, isPrimed, ProblemError, unwrap, type Fetch, type Game } from "../src/index.js";

const action = (seq: number) =>
  JSON.stringify({ event: "action", id: String(seq), data: { game_id: "g", version: seq, status: "active", entry: { seq, game: "primed" } } });
const end = JSON.stringify({ event: "end", data: { game_id: "g", status: "finished", version: 9, winners: [0] } });
const heartbeat = JSON.stringify({ event: "heartbeat" });

// fakeServer answers the n-th request with the n-th answer and records what was asked.
function fakeServer(...answers: (() => Response)[]): { fetch: Fetch; asked: Request[] } {
  const asked: Request[] = [];
  const fetch: Fetch = async (request) => {
    asked.push(request);
    const answer = answers[asked.length - 1];
    if (!answer) throw new Error(`request ${asked.length} was not expected: ${request.url}`);
    return answer();
  };
  return { fetch, asked };
}

// chunked sends the text in pieces of three bytes, so that lines arrive split.
function chunked(text: string, init: ResponseInit = {}): Response {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 3) controller.enqueue(bytes.slice(i, i + 3));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "application/x-ndjson" }, ...init });
}

test("a game's stream: lines split across chunks, heartbeats skipped, ends at end", async () => {
  const server = fakeServer(() => chunked([action(0), heartbeat, action(1), "", end, ""].join("\n")));
  const client = createClient({ baseUrl: "http://server/", token: "tok", fetch: server.fetch });
  const events: string[] = [];
  for await (const message of client.followGame("g 1")) events.push(message.event === "action" ? message.id : message.event);
  assert.deepEqual(events, ["0", "1", "end"]);
  const [request] = server.asked;
  assert.equal(request?.url, "http://server/v1/games/g%201/events");
  assert.equal(request?.headers.get("Accept"), "application/x-ndjson");
  assert.equal(request?.headers.get("Authorization"), "Bearer tok");
});

test("a stream whose token stopped working ends at revoked, without reconnecting", async () => {
  const revoked = JSON.stringify({ event: "revoked", data: { reason: "token_rotated" } });
  for (const follow of [
    (c: ReturnType<typeof createClient>) => c.followGame("g"),
    (c: ReturnType<typeof createClient>) => c.followClassroom("c"),
    (c: ReturnType<typeof createClient>) => c.followPlayer(),
  ]) {
    const server = fakeServer(() => chunked(`${heartbeat}\n${revoked}\n`));
    const events: string[] = [];
    for await (const message of follow(createClient({ baseUrl: "http://server", token: "old", fetch: server.fetch }))) {
      events.push(message.event === "revoked" ? `revoked ${message.data.reason}` : message.event);
    }
    assert.deepEqual(events, ["revoked token_rotated"]);
    assert.equal(server.asked.length, 1);
  }
});

test("a broken connection is resumed after the last id; a line cut short is dropped", async () => {
  const server = fakeServer(
    () => chunked(`${action(1)}\n${action(2)}\n${action(3).slice(0, 20)}`),
    () => chunked(`${action(3)}\n${end}\n`),
  );
  const client = createClient({ baseUrl: "http://server", fetch: server.fetch });
  const ids: string[] = [];
  for await (const message of client.followGame("g", { lastEventId: "0" })) if (message.event === "action") ids.push(message.id);
  assert.deepEqual(ids, ["1", "2", "3"]);
  assert.deepEqual(server.asked.map((r) => new URL(r.url).searchParams.get("last_event_id")), ["0", "2"]);
  assert.equal(server.asked[1]?.headers.get("Authorization"), null);
});

test("429 is waited out as Retry-After says; a refusal throws the problem", async () => {
  const problem = (status: number, code: string) => () =>
    Response.json({ type: "about:blank", title: code, status, code }, { status, headers: { "Retry-After": "0" } });
  const server = fakeServer(problem(429, "rate_limited"), () => chunked(`${end}\n`));
  const events: string[] = [];
  for await (const m of createClient({ baseUrl: "http://server", fetch: server.fetch }).followGame("g")) events.push(m.event);
  assert.deepEqual(events, ["end"]);

  const refused = fakeServer(problem(404, "game_not_found"));
  const stream = createClient({ baseUrl: "http://server", fetch: refused.fetch }).followPlayer();
  await assert.rejects(stream.next(), (err: unknown) => err instanceof ProblemError && err.status === 404 && err.code === "game_not_found");
});

test("a stream that keeps closing early fails after its reconnects", async () => {
  const server = fakeServer(() => chunked(`${action(0)}\n`), () => chunked(""));
  const client = createClient({ baseUrl: "http://server", fetch: server.fetch });
  const ids: string[] = [];
  await assert.rejects(async () => {
    for await (const m of client.followGame("g", { reconnects: 1 })) if (m.event === "action") ids.push(m.id);
  }, /closed 2 times in a row/);
  assert.deepEqual(ids, ["0"]);
  assert.equal(server.asked.length, 2);
});

test("leaving the loop closes the connection", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`${JSON.stringify({ event: "your_turn", id: "a", data: { event: "your_turn", game_id: "g" } })}\n`));
    },
    cancel() {
      cancelled = true;
    },
  });
  const server = fakeServer(() => new Response(body));
  for await (const message of createClient({ baseUrl: "http://server", fetch: server.fetch }).followPlayer()) {
    assert.equal(message.event, "your_turn");
    break;
  }
  assert.equal(cancelled, true);
});

test("guards narrow by kind; unwrap returns data or throws the problem", async () => {
  const game = { game: "primed" } satisfies Partial<Game>;
  assert.equal(isPrimed(game), true);
  assert.equal(isPrimeClimb(game), false);

  const server = fakeServer(
    () => Response.json({ games: [] }),
    () => Response.json({ type: "about:blank", title: "Unauthorized", status: 401, code: "unauthorized" }, { status: 401 }),
  );
  const client = createClient({ baseUrl: "http://server", token: "t", fetch: server.fetch });
  assert.deepEqual(unwrap(await client.GET("/v1/me/games")), { games: [] });
  const other = client.withToken("u");
  await assert.rejects(async () => unwrap(await other.GET("/v1/me")), (err: unknown) => err instanceof ProblemError && err.code === "unauthorized");
  assert.equal(server.asked[1]?.headers.get("Authorization"), "Bearer u");
});

test("a connection silent for longer than silence is taken for dead and the stream resumed", async () => {
  let stalled: ReadableStreamDefaultController<Uint8Array> | undefined;
  const server = fakeServer(
    // One entry, then nothing: a connection that stalled without breaking.
    () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            stalled = controller;
            controller.enqueue(new TextEncoder().encode(`${action(1)}\n`));
          },
        }),
        { status: 200, headers: { "Content-Type": "application/x-ndjson" } },
      ),
    () => chunked(`${action(2)}\n${end}\n`),
  );
  const client = createClient({ baseUrl: "http://server", fetch: server.fetch });
  const ids: string[] = [];
  for await (const message of client.followGame("g", { silence: 20 })) if (message.event === "action") ids.push(message.id);
  assert.deepEqual(ids, ["1", "2"]);
  assert.equal(new URL(server.asked[1]?.url ?? "").searchParams.get("last_event_id"), "1");
  assert.ok(server.asked[0]?.signal.aborted, "the silent connection was closed");
  assert.ok(stalled);
});
