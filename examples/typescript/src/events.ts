// Following event streams with @primegames/client: client.followGame and client.followPlayer read a
// stream as NDJSON and yield its messages (heartbeats skipped), each a GameStreamEvent or
// PlayerStreamEvent narrowed by its `event` field. This file checks what the example relies on:
// every entry once, in order, with its `seq` as the message's id; seat 0's turns, each once.
import { createClient, type PrimeGamesClient, type Schemas } from "@primegames/client";

export interface StreamSummary {
  actions: number; // action events received
  lastId: string | undefined;
  end: Schemas["GameEndEvent"] | undefined;
}

// followGame reads the game's public stream until its `end` event.
export async function followGame(client: PrimeGamesClient, gameId: string): Promise<StreamSummary> {
  const summary: StreamSummary = { actions: 0, lastId: undefined, end: undefined };
  let seq = -1;
  for await (const message of client.followGame(gameId)) {
    switch (message.event) {
      case "action": {
        const { entry } = message.data;
        if (entry.seq !== seq + 1) throw new Error(`event for entry ${entry.seq} after entry ${seq}`);
        if (message.id !== String(entry.seq)) throw new Error(`event id ${message.id} for entry ${entry.seq}`);
        seq = entry.seq;
        summary.actions++;
        summary.lastId = message.id;
        break;
      }
      case "end":
        summary.end = message.data;
        break;
      case "error":
        throw new Error(`the stream failed: ${message.data.code}: ${message.data.detail ?? ""}`);
      case "revoked": // the token stopped working (rotated, revoked, its seat left)
        throw new Error(`the stream ended: ${message.data.reason}`);
    }
  }
  return summary;
}

export interface PlayerSummary {
  yourTurns: number; // your_turn events of the game received
  ended: Schemas["PlayerEvent"] | undefined; // its game_ended
}

// followPlayer opens the stream of everything that concerns the client's player
// (GET /v1/me/events) and, once it is open, returns the summary it will make of one game: its
// your_turn events, each once, until its game_ended.
export async function followPlayer(client: PrimeGamesClient, gameId: string): Promise<{ summary: Promise<PlayerSummary> }> {
  let opened = (): void => undefined;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const summarize = async (): Promise<PlayerSummary> => {
    const summary: PlayerSummary = { yourTurns: 0, ended: undefined };
    const seen = new Set<string>();
    for await (const message of client.followPlayer({ onConnect: () => opened() })) {
      if (message.event === "error") throw new Error(`the stream failed: ${message.data.code}: ${message.data.detail ?? ""}`);
      if (message.event === "revoked") throw new Error(`the stream ended: ${message.data.reason}`);
      if (message.event === "assignment_done" || message.event === "assignment_due_soon") continue; // no game's
      const { data } = message;
      if (data.game_id !== gameId) continue;
      const key = `${data.event} ${data.seq}`;
      if (seen.has(key)) throw new Error(`${key} twice`);
      seen.add(key);
      if (data.event === "your_turn") summary.yourTurns++;
      if (data.event === "game_ended") {
        summary.ended = data;
        return summary; // leaving the loop closes the stream
      }
    }
    return summary;
  };
  const summary = summarize();
  await Promise.race([open, summary]); // a stream that fails to open rejects here
  return { summary };
}

// checkResume reads a finished game's stream from after entry 0 through a connection that breaks
// after its first line: the client must reconnect by itself with last_event_id set to the last id it
// got, and deliver entries 1 to the last, each once, then `end`. It returns the URLs it asked.
export async function checkResume(client: PrimeGamesClient, gameId: string, entries: number): Promise<string[]> {
  const asked: string[] = [];
  const breaking = async (request: Request): Promise<Response> => {
    asked.push(request.url);
    const response = await fetch(request);
    if (asked.length > 1) return response;
    // Only the first line (entry 1) gets through: a short game's first lines may hold its end.
    const firstLine = (await response.text()).split("\n")[0] + "\n";
    return new Response(firstLine, { status: response.status, headers: response.headers });
  };
  const resuming = createClient({ baseUrl: client.baseUrl, token: client.token, fetch: breaking });
  let seq = 0;
  let ended = false;
  for await (const message of resuming.followGame(gameId, { lastEventId: "0" })) {
    if (message.event === "error") throw new Error(`the stream failed: ${message.data.code}`);
    if (message.event === "revoked") throw new Error(`the stream ended: ${message.data.reason}`);
    if (message.event === "end") {
      ended = true;
      continue;
    }
    if (message.data.entry.seq !== seq + 1) throw new Error(`resumed stream: entry ${message.data.entry.seq} after ${seq}`);
    seq = message.data.entry.seq;
  }
  if (seq !== entries - 1 || !ended) throw new Error(`resumed stream: up to entry ${seq} (want ${entries - 1}), end ${ended}`);
  return asked;
}
