// A teacher's pages, /app/teacher: signed in through the service's OpenID Connect sign-in
// (/v1/auth/oidc/login?return_to=/app/teacher), whose session cookie the browser then sends with
// every call of this page; their classrooms, a classroom's students and the printable sign-in cards.
import { unwrap } from "@primegames/client";

import { api, sentence } from "./api.js";
import { h } from "./dom.js";
import { teacherSignIn } from "./landing.js";

interface Classroom { id: string; name: string }
interface Student { id: string; name: string }

export function teacherPage(root: HTMLElement): void {
  document.title = "Teacher · Prime games";
  const status = h("p", { role: "status" }, "Loading your classrooms…");
  const classrooms = h("div", {});
  root.replaceChildren(
    h("header", { class: "top" }, h("a", { href: "/app/", "data-nav": "", class: "brand" }, "Prime games")),
    h("main", { id: "main", tabindex: -1, class: "teacher" }, h("h1", {}, "Your classrooms"), status, classrooms));
  void (async () => {
    try {
      const answer = await api.GET("/v1/me/classrooms", {});
      if (answer.response.status === 401) {
        status.replaceChildren("You are not signed in. ", h("a", { href: teacherSignIn }, "Teacher sign-in"));
        return;
      }
      const list: Classroom[] = unwrap(answer).classrooms;
      status.textContent = list.length === 0 ? "You have no classroom yet." : `${list.length} classrooms.`;
      classrooms.replaceChildren(...list.map((c) => classroomSection(c)));
    } catch (err) {
      status.textContent = sentence(err);
    }
  })();
}

function classroomSection(c: Classroom): HTMLElement {
  const students = h("ul", { "aria-label": `Students of ${c.name}` });
  const section = h("section", { "aria-labelledby": `classroom-${c.id}` },
    h("h2", { id: `classroom-${c.id}` }, c.name),
    h("p", {}, h("a", { href: `/v1/classrooms/${c.id}/sign-in-cards.svg`, target: "_blank", rel: "noopener" }, `Print the sign-in cards of ${c.name}`)),
    students);
  void (async () => {
    try {
      const answer = await api.GET("/v1/classrooms/{classroom_id}/students", { params: { path: { classroom_id: c.id } } });
      const items: Student[] = unwrap(answer).items;
      students.replaceChildren(...items.map((s) => h("li", {}, s.name)));
      if (items.length === 0) students.replaceChildren(h("li", {}, "No students yet."));
    } catch (err) {
      students.replaceChildren(h("li", {}, sentence(err)));
    }
  })();
  return section;
}
