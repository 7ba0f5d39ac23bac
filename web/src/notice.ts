// A short confirmation carried to the next page the app shows (such as "You are signed out." on
// /app/ after signing out): kept in memory only, so a reload does not show it again.
import { h } from "./dom.js";

let pending = "";

/** tell keeps a sentence for the next page that shows notices. */
export function tell(text: string): void {
  pending = text;
}

/** notice is the kept sentence as a status line (empty, and taken, when there is none): the line is
 * in the page first and its words arrive a moment later, so that screen readers announce them. */
export function notice(): HTMLParagraphElement {
  const line = h("p", { role: "status", class: "notice" });
  const text = pending;
  pending = "";
  if (text) window.setTimeout(() => { line.textContent = text; }, 50);
  return line;
}
