import type { PlanOperation, PlanRemoval } from "../client/unstable";
import { el } from "./dom";
import { renderMarkdown } from "./markdown";

/** A plan entry as the view shows it. */
interface Entry {
  readonly content: string;
  readonly status: string;
}

/**
 * The plans in the conversation: the legacy plan (one per turn, replaced
 * as it changes) and the plans the agent keeps by id (plan_update: a list
 * of entries, Markdown, or a file; plan_removed). A plan shows where it
 * was first shown in the turn and is redrawn there as it changes; in a
 * later turn it shows anew, the earlier one left as it was. A removed
 * plan stays, marked cleared (data-removed), as a record of what it was.
 */
export class Plans {
  private readonly add: (block: HTMLElement) => void;
  private legacy: HTMLElement | undefined;
  // This turn's block of each plan id, and the last one shown of each.
  private readonly current = new Map<string, HTMLElement>();
  private readonly last = new Map<string, HTMLElement>();

  /** add puts a new plan block at the end of the conversation. */
  constructor(add: (block: HTMLElement) => void) {
    this.add = add;
  }

  /** Shows the legacy plan (sessionUpdate "plan"). */
  show(entries: readonly Entry[]): void {
    this.legacy ??= this.block();
    fill(this.legacy, entries);
  }

  /** Shows a plan_update: its plan's block in this turn, drawn anew. */
  update(u: PlanOperation): void {
    const { plan } = u;
    let block = this.current.get(plan.planId);
    if (!block) {
      block = this.block(plan.planId);
      this.current.set(plan.planId, block);
      this.last.set(plan.planId, block);
    }
    switch (plan.type) {
      case "items":
        fill(block, plan.entries);
        return;
      case "markdown": {
        const body = el("div", { class: "plan-markdown", "data-testid": "plan-markdown" });
        body.innerHTML = renderMarkdown(plan.content);
        block.replaceChildren(el("div", { class: "plan-title" }, "Plan"), body);
        return;
      }
      case "file":
        block.replaceChildren(el("div", { class: "plan-title" }, "Plan"), el("a", { href: plan.uri, "data-testid": "plan-file" }, plan.uri));
        return;
    }
  }

  /** Shows a plan_removed: the plan's last block is marked cleared. */
  remove(u: PlanRemoval): void {
    const block = this.last.get(u.planId);
    this.last.delete(u.planId);
    this.current.delete(u.planId);
    if (!block) return;
    block.dataset["removed"] = "true";
    const title = block.querySelector(".plan-title");
    if (title) title.textContent = "Plan (cleared)";
  }

  /** A new turn: the next plan of each kind starts a block of its own. */
  newTurn(): void {
    this.legacy = undefined;
    this.current.clear();
  }

  /** Forgets every plan (another conversation). */
  clear(): void {
    this.newTurn();
    this.last.clear();
  }

  private block(planId?: string): HTMLElement {
    const block = el("div", { class: "plan", "data-testid": "plan", ...(planId === undefined ? {} : { "data-plan-id": planId }) });
    this.add(block);
    return block;
  }
}

function fill(block: HTMLElement, entries: readonly Entry[]): void {
  block.replaceChildren(el("div", { class: "plan-title" }, "Plan"));
  for (const e of entries) block.append(el("div", { class: `plan-entry ${e.status}`, "data-status": e.status }, e.content));
}
