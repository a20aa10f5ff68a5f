import type { FromWebview } from "../chat/messages";
import { el } from "./dom";

/**
 * What the user sent during a turn that has not reached the conversation
 * yet, shown above the input: a steering message until the agent reads it
 * (it then shows in the conversation as the user's message where it
 * landed), and the queued prompts, each with × to take it back, until
 * their turn starts.
 */
export class PendingInput {
  readonly root = el("div", { class: "pending-input", "data-testid": "pending-input", hidden: "" });
  private readonly steering: { text: string; el: HTMLElement }[] = [];
  private readonly queued = el("div", { class: "pending-queued-list" });
  private readonly send: (m: FromWebview) => void;

  constructor(send: (m: FromWebview) => void) {
    this.send = send;
    this.root.append(this.queued);
  }

  /** A steering message went to the agent. */
  steer(text: string): void {
    const row = el("div", { class: "pending steer", "data-testid": "pending-steer", title: "dsh reads this at its next step" });
    row.append(el("span", { class: "pending-label" }, "Steering"), el("span", { class: "pending-text" }, text));
    this.root.insertBefore(row, this.queued);
    this.steering.push({ text, el: row });
    this.render();
  }

  /** The agent did not take a steering message (it is queued, or sent as a prompt, instead). */
  dropped(text: string): void {
    this.take(text);
  }

  /** The conversation shows a user message: a pending steering message with its text has landed. Reports whether it was one. */
  landed(text: string): boolean {
    return this.take(text);
  }

  /** Shows the queued prompts (the whole list). */
  queue(items: readonly { readonly id: string; readonly text: string }[]): void {
    this.queued.replaceChildren();
    for (const item of items) {
      const row = el("div", { class: "pending queued", "data-testid": "pending-queued", "data-queue-id": item.id, title: "Sent when this turn ends" });
      const remove = el("button", { class: "pending-remove secondary", "data-testid": "pending-remove", title: "Do not send this", "aria-label": "Remove from the queue" }, "×");
      remove.addEventListener("click", () => this.send({ type: "unqueue", id: item.id }));
      row.append(el("span", { class: "pending-label" }, "Queued"), el("span", { class: "pending-text" }, item.text), remove);
      this.queued.append(row);
    }
    this.render();
  }

  /** Forgets every pending message (another session). */
  clear(): void {
    for (const s of this.steering.splice(0)) s.el.remove();
    this.queued.replaceChildren();
    this.render();
  }

  private take(text: string): boolean {
    const i = this.steering.findIndex((s) => s.text === text);
    const [s] = i < 0 ? [] : this.steering.splice(i, 1);
    s?.el.remove();
    this.render();
    return s !== undefined;
  }

  private render(): void {
    this.root.hidden = this.steering.length === 0 && this.queued.childElementCount === 0;
  }
}
