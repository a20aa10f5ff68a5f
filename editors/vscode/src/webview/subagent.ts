import type { FromWebview } from "../chat/messages";
import type { SubagentAnnouncement, SubagentWorkState } from "../client/unstable";
import { el, part } from "./dom";
import { Stream } from "./stream";

/** What a subagent's block says of its work. */
export type SubagentShown = "running" | "waiting" | "done" | "failed" | "cancelled";

/**
 * How a child's reported work state shows: running (or waiting for the
 * user), else by why its work stopped: done at the end of its turn,
 * cancelled, failed for any other reason (an error, a step budget spent,
 * a refusal); undefined when the state says nothing (unknown).
 */
export function shownState(s: SubagentWorkState): SubagentShown | undefined {
  switch (s.state) {
    case "running":
      return "running";
    case "requires_action":
      return "waiting";
    case "idle": {
      const reason = "stopReason" in s ? s.stopReason : undefined;
      if (reason === "cancelled") return "cancelled";
      return reason === undefined || reason === null || reason === "end_turn" ? "done" : "failed";
    }
    default:
      return undefined;
  }
}

const LABEL: Readonly<Record<SubagentShown, string>> = {
  running: "running",
  waiting: "waiting for you",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/**
 * One subagent (a child session) in its parent's turn: a collapsible
 * block titled with the task's description, its state, and its Stop
 * (session/cancel for the child alone, while it runs and the agent lets
 * it be cancelled); inside, the child's answer, thoughts and tool cards
 * as they stream. Open while it works, folded once it has ended.
 */
export class SubagentBlock {
  /** The block's root element. */
  readonly root: HTMLDetailsElement;
  /** The child's answer and thoughts. */
  readonly stream: Stream;
  private readonly body: HTMLElement;
  private readonly stopButton: HTMLButtonElement;
  private cancellable = false;
  private state: SubagentShown | undefined;

  constructor(sessionId: string, send: (m: FromWebview) => void) {
    this.root = el("details", { class: "subagent", "data-testid": "subagent", "data-session-id": sessionId, open: "" });
    const summary = el("summary", { class: "subagent-head" });
    this.stopButton = el("button", { class: "secondary subagent-stop", "data-testid": "subagent-stop", title: "Stop this subagent (the rest of the turn goes on)", hidden: "" }, "Stop");
    this.stopButton.addEventListener("click", (ev) => {
      ev.preventDefault(); // not a toggle of the block
      this.stopButton.disabled = true;
      send({ type: "stopSubagent", sessionId });
    });
    summary.append(el("span", { class: "subagent-title", "data-testid": "subagent-title" }, "Subagent"), el("span", { class: "subagent-state", "data-testid": "subagent-state" }), this.stopButton);
    this.body = el("div", { class: "subagent-body" });
    this.root.append(summary, this.body);
    this.stream = new Stream(this.body);
  }

  /** Applies a subagent_update about this child: its title, description, cancel capability and state (omitted: unchanged). */
  announce(u: SubagentAnnouncement): void {
    if (u.title !== undefined) part(this.root, "subagent-title").textContent = u.title ?? "Subagent";
    if (u.description !== undefined) this.root.title = u.description ?? "";
    if (u.capabilities !== undefined) this.cancellable = u.capabilities?.cancel != null;
    const state = u.state == null ? undefined : shownState(u.state);
    if (state !== undefined) this.show(state);
    this.stopButton.hidden = !this.cancellable || (this.state !== "running" && this.state !== "waiting");
  }

  /** Adds a block (a tool card) after the child's streamed text. */
  place(block: HTMLElement): void {
    this.stream.end();
    this.body.append(block);
  }

  private show(state: SubagentShown): void {
    const ended = state === "done" || state === "failed" || state === "cancelled";
    if (ended && this.state !== state) {
      this.stream.end();
      this.root.open = false;
    }
    this.state = state;
    this.root.dataset["state"] = state;
    part(this.root, "subagent-state").textContent = LABEL[state];
  }
}
