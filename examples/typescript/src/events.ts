// Following event streams with @primegames/client: client.followGame and client.followPlayer read a
// stream as NDJSON and yield its messages (heartbeats skipped), each a GameStreamEvent or
// PlayerStreamEvent narrowed by its `event` field. This file checks what the example relies on:
// every entry once, in order, with its `seq` as the message's id; seat 0's turns, each once.
import type { PrimeGamesClient, Schemas } from "@primegames/client";

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
