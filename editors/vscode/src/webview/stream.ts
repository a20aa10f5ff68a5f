import { el } from "./dom";
import { renderMarkdown } from "./markdown";

/**
 * The streamed blocks of one speaker in a container: its answer
 * (Markdown, re-rendered as chunks arrive) and its thoughts (open while
 * they stream, folded after). The conversation has one, and so has each
 * subagent's block.
 */
export class Stream {
  private readonly container: HTMLElement;
  private readonly opening: () => void;
  private message_: { el: HTMLElement; text: string } | undefined;
  private thought_: { details: HTMLDetailsElement; body: HTMLElement; text: string } | undefined;

  /** opening is called before a new block is added to container. */
  constructor(container: HTMLElement, opening: () => void = () => undefined) {
    this.container = container;
    this.opening = opening;
  }

  /** Appends answer text (a thought streaming before it folds). */
  message(text: string): void {
    this.foldThought();
    if (!this.message_) {
      this.opening();
      const e = el("div", { class: "message agent", "data-testid": "message-agent" });
      this.container.append(e);
      this.message_ = { el: e, text: "" };
    }
    this.message_.text += text;
    this.message_.el.innerHTML = renderMarkdown(this.message_.text);
  }

  /** Appends thought text (the answer so far ends: the next chunk of it starts a new block). */
  thought(text: string): void {
    this.message_ = undefined;
    if (!this.thought_) {
      this.opening();
      const details = el("details", { class: "thought", "data-testid": "thought", open: "" });
      const body = el("div", { class: "thought-body" });
      details.append(el("summary", {}, "Thinking…"), body);
      this.container.append(details);
      this.thought_ = { details, body, text: "" };
    }
    this.thought_.text += text;
    this.thought_.body.textContent = this.thought_.text;
  }

  /** Ends the streamed blocks (the next chunk starts a new one); a thought is folded. */
  end(): void {
    this.message_ = undefined;
    this.foldThought();
  }

  // A finished thought folds under "Thinking" (the user may open it again).
  private foldThought(): void {
    if (!this.thought_) return;
    this.thought_.details.open = false;
    const summary = this.thought_.details.querySelector("summary");
    if (summary) summary.textContent = "Thinking";
    this.thought_ = undefined;
  }
}
