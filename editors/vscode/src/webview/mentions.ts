import type { FromWebview, MentionItem } from "../chat/messages";
import { el } from "./dom";

/** The `@` word being typed at the end of the text before the cursor, if any (what the mention list completes). */
export function mentionQuery(beforeCursor: string): string | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(beforeCursor);
  return m ? (m[1] ?? "") : undefined;
}

/**
 * `@` mentions: while the word at the cursor starts with "@", the
 * extension is asked what matches (the active selection, workspace
 * symbols with their lines, files); picking one (click or Tab) puts
 * `@path ` or `@path#L10-20 ` in the input. It shares the completion box with
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

  /** The extension's answer: what matches query (ignored when the input has moved on). */
  show(query: string, items: readonly MentionItem[]): void {
    if (query !== this.query) return;
    this.box.replaceChildren();
    for (const m of items) {
      const item = el("div", { class: `completion mention-${m.kind}`, "data-testid": "mention-completion", "data-path": m.insert, "data-kind": m.kind });
      item.append(el("strong", {}, m.label));
      if (m.detail) item.append(el("span", { class: "completion-detail" }, ` ${m.detail}`));
      item.addEventListener("click", () => this.pick(m.insert));
      this.box.append(item);
    }
    this.showing = items.length > 0;
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
