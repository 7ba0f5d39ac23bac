// The page an LTI launch lands on, /app/lti#code=… (POST /v1/lti/launch sends the browser here,
// usually inside the LMS's frame). The one-time code rides in the fragment, which the browser never
// sends to a server; the page takes it out of the address bar at once, trades it at
// POST /v1/lti/handover and goes on: a teacher to the launched classroom's page (the account token
// kept in sessionStorage and sent as a bearer token, since a frame's cookies are often blocked),
// a student to their games (the student token kept as a card sign-in keeps it, see signin.ts).
import { unwrap } from "@primegames/client";

import { api, sentence } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { rememberTeacher } from "./teacher.js";

// The key signin.ts keeps a student's token under.
const studentKey = "primegames.student";

export function ltiPage(root: HTMLElement): void {
  document.title = `${t("Opening Prime games from your course")} · Prime games`;
  const code = new URLSearchParams(location.hash.slice(1)).get("code") ?? "";
  // The code leaves the address bar (and the history) before anything else happens.
  if (location.hash) history.replaceState(null, "", location.pathname);
  const status = h("p", { role: "status" }, code ? t("Opening Prime games from your course…") : "");
  const error = h("p", { class: "error", role: "alert" });
  root.replaceChildren(
    h("header", { class: "top" }, h("span", { class: "brand" }, "Prime games")),
    h("main", { id: "main", tabindex: -1 }, h("h1", {}, t("Prime games from your course")), status, error));
  if (!code) {
    error.textContent = t("This page opens Prime games from your course. Open it from your course again.");
    return;
  }
  void (async () => {
    try {
      const handed = unwrap(await api.POST("/v1/lti/handover", { body: { code } }));
      let to: string;
      if (handed.role === "teacher") {
        rememberTeacher(handed.token, handed.token_id);
        to = `/app/teacher/classrooms/${handed.classroom.id}`;
      } else {
        localStorage.setItem(studentKey, JSON.stringify({ token: handed.token, name: handed.student?.name ?? "", classroom: handed.classroom.name }));
        to = "/app/me";
      }
      // In place of this page: Back does not come here again, where the code is spent.
      history.replaceState(null, "", to);
      window.dispatchEvent(new Event("app:navigate"));
    } catch (err) {
      status.textContent = "";
      error.textContent = `${sentence(err)} ${t("Open Prime games from your course again.")}`;
    }
  })();
}
