import type { FromWebview } from "../chat/messages";
import { el } from "./dom";

/** The `@` word being typed at the end of the text before the cursor, if any (what the mention list completes). */
export function mentionQuery(beforeCursor: string): string | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(beforeCursor);
  return m ? (m[1] ?? "") : undefined;
}

/**
 * `@` mentions of workspace files: while the word at the cursor starts
 * with "@", the extension is asked for matching files; picking one (click
 * or Tab) puts `@path ` in the input. It shares the completion box with
 * the slash commands and hides it only when it showed it.
 */
export class MentionCompletion {
  private readonly input: HTMLTextAreaElement;
  private readonly box: HTMLElement;
  private readonly send: (m: FromWebview) => void;
  private query: string | undefined;
  private showing = false;

  constructor(input: HTMLTextAreaElement, box: HTMLElement, send: (m: FromWebview) => void) {
    this.input = input;
    this.box = box;
    this.send = send;
  }

  /** Asks for the files matching the word at the cursor, or hides the list. */
  refresh(): void {
    this.query = mentionQuery(this.input.value.slice(0, this.input.selectionStart));
    if (this.query === undefined) {
      this.hide();
      return;
    }
    this.send({ type: "mention", query: this.query });
  }

  /** The extension's answer: the files matching query (ignored when the input has moved on). */
  show(query: string, paths: readonly string[]): void {
    if (query !== this.query) return;
    this.box.replaceChildren();
    for (const p of paths) {
      const item = el("div", { class: "completion", "data-testid": "mention-completion", "data-path": p }, p);
      item.addEventListener("click", () => this.pick(p));
      this.box.append(item);
    }
    this.showing = paths.length > 0;
    this.box.hidden = !this.showing;
  }

  /** Completes with the first file listed; returns whether there was one. */
  completeFirst(): boolean {
    if (!this.showing) return false;
    const first = this.box.querySelector<HTMLElement>('[data-testid="mention-completion"]');
    first?.click();
    return first !== null;
  }

  /** Hides the list, if this showed it. */
  hide(): void {
    if (!this.showing) return;
    this.showing = false;
    this.box.hidden = true;
  }

  private pick(p: string): void {
    const cursor = this.input.selectionStart;
    const before = this.input.value.slice(0, cursor).replace(/@[^\s@]*$/, `@${p} `);
    this.input.value = before + this.input.value.slice(cursor);
    this.input.selectionStart = this.input.selectionEnd = before.length;
    this.hide();
    this.input.focus();
  }
}
