/** The element with id, which the page must have, of the given type (HTMLButtonElement, …). */
export function byId<T extends HTMLElement>(id: string, type: abstract new () => T): T {
  const e = document.getElementById(id);
  if (!(e instanceof type)) throw new Error(e ? `#${id} is a <${e.tagName.toLowerCase()}>, not a ${type.name}` : `missing #${id}`);
  return e;
}

/** A new element with attributes and, optionally, text content. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The child of parent with class cls, which it must have. */
export function part(parent: HTMLElement, cls: string): HTMLElement {
  const p = parent.querySelector<HTMLElement>(`.${cls}`);
  if (!p) throw new Error(`missing .${cls}`);
  return p;
}

/** Escapes text for use inside HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
