// Following a game's server-sent events with fetch: openapi-typescript types a text/event-stream body
// as a string, so the stream is split into messages here and each message's `data` is read as the
// contract's GameStreamEvent says, narrowed by its `event` field.
import type { components } from "./schema.js";

type Schemas = components["schemas"];
type GameStreamEvent = Schemas["GameStreamEvent"];

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
  for await (const message of messages(response.body)) {
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

// messages splits an event stream into its messages (the WHATWG rules: a blank line ends a message,
// `:` starts a comment, several data lines join with a newline).
async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<GameStreamEvent> {
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
        if (data.length > 0) yield parse(event, id, data.join("\n"));
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
function parse(event: string, id: string | undefined, data: string): GameStreamEvent {
  const message: unknown = { event, id, data: JSON.parse(data) };
  if (!isStreamEvent(message)) throw new Error(`unexpected ${event} event: ${data}`);
  return message;
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
