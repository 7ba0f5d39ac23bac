// A small helper to build the DOM without a framework: h("button", { onclick }, "Roll").
type Child = Node | string | number | false | null | undefined | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") {
      el.addEventListener(name.replace(/^on/, ""), value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** replace puts children in place of what el holds. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** field is a labelled input: the label holds the text and the input, so the input is named by it. */
export function field(label: string, input: HTMLInputElement | HTMLSelectElement): HTMLLabelElement {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

/** go navigates inside the app without reloading the page. */
export function go(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("app:navigate"));
}
