// Following server-sent events with fetch: openapi-typescript types a text/event-stream body as a
// string, so the stream is split into messages here and each message's `data` is read as the
// contract's GameStreamEvent (a game's stream) or PlayerStreamEvent (a player's, GET /v1/me/events)
// says, narrowed by its `event` field.
import type { components } from "./schema.js";

type Schemas = components["schemas"];
type GameStreamEvent = Schemas["GameStreamEvent"];
type PlayerStreamEvent = Schemas["PlayerStreamEvent"];

// RawMessage is one message before its data is checked against the contract.
interface RawMessage {
  event: string;
  id: string | undefined;
  data: unknown;
}

export interface StreamSummary {
  actions: number; // action events received
  lastId: string | undefined;
  end: Schemas["GameEndEvent"] | undefined;
}

// followGame reads the game's public stream until its `end` event.
export async function followGame(baseUrl: string, gameId: string): Promise<StreamSummary> {
  const response = await fetch(`${baseUrl}/v1/games/${gameId}/events`, { headers: { Accept: "text/event-stream" } });
  if (!response.ok || !response.body) throw new Error(`GET events: ${response.status}`);
  const summary: StreamSummary = { actions: 0, lastId: undefined, end: undefined };
  let seq = -1;
  for await (const raw of messages(response.body)) {
    const message = parse(raw);
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
        return summary;
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

// followPlayer opens the stream of everything that concerns the token's player
// (GET /v1/me/events) and, once it is open, returns the summary it will make of one game: its
// your_turn events, each once, until its game_ended.
export async function followPlayer(baseUrl: string, token: string, gameId: string): Promise<{ summary: Promise<PlayerSummary> }> {
  const response = await fetch(`${baseUrl}/v1/me/events`, { headers: { Accept: "text/event-stream", Authorization: `Bearer ${token}` } });
  if (!response.ok || !response.body) throw new Error(`GET /v1/me/events: ${response.status}`);
  const body = response.body;
  const summarize = async (): Promise<PlayerSummary> => {
    const summary: PlayerSummary = { yourTurns: 0, ended: undefined };
    const seen = new Set<string>();
    for await (const raw of messages(body)) {
      const message = parsePlayer(raw);
      if (message.event === "error") throw new Error(`the stream failed: ${message.data.code}: ${message.data.detail ?? ""}`);
      const { data } = message;
      if (data.game_id !== gameId) continue;
      const key = `${data.event} ${data.seq}`;
      if (seen.has(key)) throw new Error(`${key} twice`);
      seen.add(key);
      if (data.event === "your_turn") summary.yourTurns++;
      if (data.event === "game_ended") {
        summary.ended = data;
        return summary; // leaving the loop cancels the stream
      }
    }
    return summary;
  };
  return { summary: summarize() };
}

// messages splits an event stream into its messages (the WHATWG rules: a blank line ends a message,
// `:` starts a comment, several data lines join with a newline).
async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<RawMessage> {
  let buffer = "";
  let event = "message";
  let id: string | undefined;
  let data: string[] = [];
  for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (data.length > 0) yield { event, id, data: JSON.parse(data.join("\n")) };
        event = "message";
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    }
  }
}

// parse reads one message as a GameStreamEvent; it checks the fields this program relies on.
function parse(message: RawMessage): GameStreamEvent {
  if (!isStreamEvent(message)) throw new Error(`unexpected ${message.event} event: ${JSON.stringify(message.data)}`);
  return message;
}

// parsePlayer reads one message as a PlayerStreamEvent; it checks the fields this program relies on.
function parsePlayer(message: RawMessage): PlayerStreamEvent {
  if (!isPlayerStreamEvent(message)) throw new Error(`unexpected ${message.event} event: ${JSON.stringify(message.data)}`);
  return message;
}

function isPlayerStreamEvent(m: unknown): m is PlayerStreamEvent {
  if (!isRecord(m) || !isRecord(m.data)) return false;
  const d = m.data;
  switch (m.event) {
    case "game_started":
    case "your_turn":
    case "timed_out":
    case "game_ended":
      return typeof m.id === "string" && d.event === m.event && typeof d.game_id === "string" &&
        typeof d.seat === "number" && typeof d.seq === "number" && typeof d.status === "string";
    case "error":
      return typeof d.code === "string" && typeof d.status === "number";
    default:
      return false;
  }
}

function isStreamEvent(m: unknown): m is GameStreamEvent {
  if (!isRecord(m) || !isRecord(m.data)) return false;
  const d = m.data;
  switch (m.event) {
    case "action":
      return typeof m.id === "string" && typeof d.game_id === "string" && typeof d.version === "number" &&
        isRecord(d.entry) && typeof d.entry.seq === "number" && typeof d.entry.game === "string";
    case "end":
      return typeof d.game_id === "string" && typeof d.status === "string" && Array.isArray(d.winners);
    case "error":
      return typeof d.code === "string" && typeof d.status === "number";
    default:
      return false;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
