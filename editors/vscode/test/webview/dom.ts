import { Window } from "happy-dom";

/**
 * Installs a fresh happy-dom window as the globals the chat view's script
 * uses (document, its element classes) and returns it; close() it after.
 */
export function installDom(): Window {
  const window = new Window();
  const g = globalThis as Record<string, unknown>;
  g["window"] = window;
  g["document"] = window.document;
  for (const name of ["Element", "HTMLElement", "HTMLDetailsElement", "HTMLSelectElement", "HTMLButtonElement", "HTMLTextAreaElement", "HTMLAnchorElement", "MouseEvent"]) {
    g[name] = (window as unknown as Record<string, unknown>)[name];
  }
  return window;
}
