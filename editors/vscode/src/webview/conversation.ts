import type { PermissionOption, SessionUpdate } from "@agentclientprotocol/sdk";
import type { FromWebview } from "../chat/messages";
import { el } from "./dom";
import { renderMarkdown } from "./markdown";
import { ToolCard } from "./toolCard";

/**
 * The conversation log: prompts, streamed answers (Markdown, re-rendered
 * as chunks arrive), folded thoughts, the plan, and one card per tool call.
 */
export class Conversation {
  private readonly log: HTMLElement;
  private readonly send: (m: FromWebview) => void;
  private readonly cards = new Map<string, ToolCard>();
  private message: { el: HTMLElement; text: string } | undefined;
  private thought: { body: HTMLElement; text: string } | undefined;
  private plan: HTMLElement | undefined;

  constructor(log: HTMLElement, send: (m: FromWebview) => void) {
    this.log = log;
    this.send = send;
  }

  /** Applies one session update. */
  apply(u: SessionUpdate): void {
    switch (u.sessionUpdate) {
      case "agent_message_chunk":
        if (u.content.type === "text") this.appendMessage(u.content.text);
        break;
      case "agent_thought_chunk":
        if (u.content.type === "text") this.appendThought(u.content.text);
        break;
      case "user_message_chunk":
        if (u.content.type === "text") this.user(u.content.text);
        break;
      case "plan":
        this.showPlan(u.entries);
        break;
      case "tool_call":
      case "tool_call_update":
        this.card(u.toolCallId).apply(u);
        break;
      default:
        return;
    }
    this.scroll();
  }

  /** Shows a prompt the user sent. */
  user(text: string): void {
    this.endStreams();
    this.plan = undefined;
    this.log.append(el("div", { class: "message user", "data-testid": "message-user" }, text));
    this.scroll();
  }

  /** Shows an approval question on its call's card. */
  ask(requestId: string, toolCallId: string, title: string, options: readonly PermissionOption[]): void {
    this.card(toolCallId).ask(requestId, title, options);
    this.scroll();
  }

  /** Removes an answered approval question. */
  answered(requestId: string): void {
    for (const c of this.cards.values()) c.answered(requestId);
  }

  /** Shows an info or error line. */
  notice(level: string, text: string): void {
    this.log.append(el("div", { class: `notice ${level}`, "data-testid": "notice" }, text));
    this.scroll();
  }

  /** Ends the streamed blocks (the next chunk starts a new one). */
  endStreams(): void {
    this.message = undefined;
    this.thought = undefined;
  }

  /** Empties the log (another session). */
  clear(): void {
    this.log.replaceChildren();
    this.cards.clear();
    this.endStreams();
    this.plan = undefined;
  }

  private card(id: string): ToolCard {
    let c = this.cards.get(id);
    if (!c) {
      this.endStreams();
      c = new ToolCard(id, this.send);
      this.cards.set(id, c);
      this.log.append(c.root);
    }
    return c;
  }

  private appendMessage(text: string): void {
    this.thought = undefined;
    if (!this.message) {
      const e = el("div", { class: "message agent", "data-testid": "message-agent" });
      this.log.append(e);
      this.message = { el: e, text: "" };
    }
    this.message.text += text;
    this.message.el.innerHTML = renderMarkdown(this.message.text);
  }

  private appendThought(text: string): void {
    this.message = undefined;
    if (!this.thought) {
      const details = el("details", { class: "thought", "data-testid": "thought" });
      const body = el("div", { class: "thought-body" });
      details.append(el("summary", {}, "Thinking"), body);
      this.log.append(details);
      this.thought = { body, text: "" };
    }
    this.thought.text += text;
    this.thought.body.textContent = this.thought.text;
  }

  private showPlan(entries: readonly { content: string; status: string }[]): void {
    if (!this.plan) {
      this.plan = el("div", { class: "plan", "data-testid": "plan" });
      this.log.append(this.plan);
    }
    this.plan.replaceChildren(el("div", { class: "plan-title" }, "Plan"));
    for (const e of entries) this.plan.append(el("div", { class: `plan-entry ${e.status}`, "data-status": e.status }, e.content));
  }

  private scroll(): void {
    this.log.scrollTop = this.log.scrollHeight;
  }
}
