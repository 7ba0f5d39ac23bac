// The client of the API, on the same origin as the app, and the seats this browser holds.
import { createClient, ProblemError, type PrimeGamesClient } from "@primegames/client";

import { t } from "./i18n.js";

export const api: PrimeGamesClient = createClient({ baseUrl: location.origin });

/** A seat this browser holds in a game: its token (shown once by the server) and what the app shows. */
export interface SeatRecord {
  gameId: string;
  token: string;
  name: string;
  kind: string;
  creatorToken?: string | undefined;
  inviteCode?: string | undefined;
  savedAt: number;
}

const prefix = "primegames.seat.";
const keep = 20; // seats kept; the oldest are forgotten

export function saveSeat(seat: SeatRecord): void {
  localStorage.setItem(prefix + seat.gameId, JSON.stringify(seat));
  const all = seats();
  for (const old of all.slice(keep)) localStorage.removeItem(prefix + old.gameId);
}

export function seatOf(gameId: string): SeatRecord | undefined {
  const raw = localStorage.getItem(prefix + gameId);
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as SeatRecord;
  } catch {
    return undefined;
  }
}

export function forgetSeat(gameId: string): void {
  localStorage.removeItem(prefix + gameId);
}

/** seats lists the seats kept, newest first. */
export function seats(): SeatRecord[] {
  const out: SeatRecord[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(prefix)) continue;
    const seat = seatOf(key.slice(prefix.length));
    if (seat) out.push(seat);
  }
  return out.sort((a, b) => b.savedAt - a.savedAt);
}

export function lastName(): string {
  return localStorage.getItem("primegames.name") ?? "";
}

export function rememberName(name: string): void {
  localStorage.setItem("primegames.name", name);
}

/**
 * sentence is what to tell a person about a failed call: the problem's own sentence when there is one
 * (in the reader's language already: the browser sends its Accept-Language with every call, and
 * nothing here overrides it), else one of the app's own.
 */
export function sentence(err: unknown): string {
  if (err instanceof ProblemError) return err.problem?.detail ?? err.problem?.title ?? t("Something went wrong (error {status}).", { status: String(err.status) });
  if (err instanceof TypeError) return t("The server cannot be reached. Check the connection and try again.");
  if (err instanceof Refusal) return err.message;
  return t("Something went wrong ({reason}).", { reason: err instanceof Error ? err.message : String(err) });
}

/** Refusal is a sentence of the app's own, in the reader's language, to show as it is. */
export class Refusal extends Error {}

export const kindNames: Record<string, string> = { "prime-climb": "Prime Climb", primed: "Primed" };

/** statusWord is a game's status (the API's word for it) in the reader's language. */
export function statusWord(status: string): string {
  switch (status) {
    case "lobby":
      return t("waiting for players");
    case "active":
      return t("being played");
    case "finished":
      return t("finished");
    case "aborted":
      return t("stopped");
    default:
      return status;
  }
}
