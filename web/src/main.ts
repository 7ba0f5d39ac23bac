// The app's entry point: a router over location.pathname (/app/, /app/game/{id}), links marked
// data-nav followed without reloading the page.
import "./style.css";

import { gamePage } from "./game.js";
import { lang, t } from "./i18n.js";
import { landing } from "./landing.js";
import { ltiPage } from "./lti.js";
import { myGamesPage, signInPage } from "./signin.js";
import { classroomPage, teacherPage } from "./teacher.js";

const root = document.getElementById("app") as HTMLElement;
document.documentElement.lang = lang;
const skip = document.querySelector("a.skip");
if (skip) skip.textContent = t("Skip to the content");
let leave: () => void = () => {};

function route(): void {
  leave();
  leave = () => {};
  const path = location.pathname.replace(/\/+$/, "");
  const game = /^\/app\/game\/([0-9a-f-]{36})$/.exec(path);
  if (game?.[1]) {
    leave = gamePage(root, game[1]);
  } else if (path === "/app/lti") {
    ltiPage(root);
  } else if (path === "/app/sign-in") {
    signInPage(root);
  } else if (path === "/app/me") {
    myGamesPage(root);
  } else if (/^\/app\/teacher\/classrooms\/[0-9a-f-]{36}$/.test(path)) {
    leave = classroomPage(root, path.slice(-36));
  } else if (path === "/app/teacher") {
    teacherPage(root);
  } else {
    landing(root);
  }
  document.getElementById("main")?.focus({ preventScroll: true });
}

document.addEventListener("click", (e) => {
  const link = (e.target as Element | null)?.closest?.("a[data-nav]");
  if (!(link instanceof HTMLAnchorElement) || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  history.pushState(null, "", link.pathname);
  route();
});
window.addEventListener("popstate", route);
window.addEventListener("app:navigate", route);
route();
