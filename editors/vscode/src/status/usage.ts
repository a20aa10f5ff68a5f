import * as vscode from "vscode";
import type { UsageUpdate } from "@agentclientprotocol/sdk";

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(n);
}

/** An amount of money as the status bar and the turns show it: "$0.0123", or "EUR 1.0000". */
export function moneyText(cost: { readonly amount: number; readonly currency: string }): string {
  return `${cost.currency === "USD" ? "$" : `${cost.currency} `}${cost.amount.toFixed(4)}`;
}

/** The status bar text for a usage_update: context used of size, and the cost so far. */
export function usageText(u: Pick<UsageUpdate, "used" | "size" | "cost">): string {
  const cost = u.cost ? ` · ${moneyText(u.cost)}` : "";
  return `dsh ${compact(u.used)}/${compact(u.size)}${cost}`;
}

/** What one request cost: the session's cost after it less the cost before (undefined when either is unknown, or the currency changed). */
export function requestCost(
  before: { readonly amount: number; readonly currency: string } | undefined,
  after: { readonly amount: number; readonly currency: string } | undefined,
): { readonly amount: number; readonly currency: string } | undefined {
  if (!after) return undefined;
  const from = before ?? { amount: 0, currency: after.currency };
  if (from.currency !== after.currency || after.amount < from.amount) return undefined;
  return { amount: after.amount - from.amount, currency: after.currency };
}

/**
 * The status bar item showing a conversation's context use and its
 * session's total cost (the agent's usage_update), with the cost of its
 * requests in the tooltip. With several conversations open, only the one
 * in front (see front) shows.
 */
export class UsageStatus {
  private readonly item: vscode.StatusBarItem;
  private cost_: { readonly amount: number; readonly currency: string } | undefined;
  private last: Pick<UsageUpdate, "used" | "size"> | undefined;
  private requests = 0;
  private priced_ = 0;
  private lastRequest: string | undefined;
  private inFront = true;

  constructor() {
    this.item = vscode.window.createStatusBarItem("dsh.usage", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "dsh usage";
    this.item.command = "dsh.chat.focus";
  }

  /** Shows u. */
  update(u: Pick<UsageUpdate, "used" | "size" | "cost">): void {
    if (u.cost) {
      this.cost_ = { amount: u.cost.amount, currency: u.cost.currency };
      this.priced_++;
    }
    this.last = { used: u.used, size: u.size };
    this.item.text = usageText({ ...u, cost: this.cost_ ?? null });
    this.render();
  }

  /** Notes what one request of the session cost (shown in the tooltip). */
  noteRequest(cost: { readonly amount: number; readonly currency: string }): void {
    this.requests++;
    this.lastRequest = moneyText(cost);
    this.render();
  }

  /** Hides the item and forgets the session's figures (a new or another session). */
  reset(): void {
    this.cost_ = undefined;
    this.last = undefined;
    this.requests = 0;
    this.lastRequest = undefined;
    this.item.text = "";
    this.render();
  }

  /** Puts this conversation's figures in the status bar (on) or takes them out (another conversation is in front). */
  front(on: boolean): void {
    this.inFront = on;
    this.render();
  }

  /** How many usage updates with a cost came (one for each priced request): a turn across which it did not change made none. */
  get priced(): number {
    return this.priced_;
  }

  /** The session's cost so far, if the agent has said. */
  get cost(): { readonly amount: number; readonly currency: string } | undefined {
    return this.cost_;
  }

  /** The text shown. */
  get text(): string {
    return this.item.text;
  }

  /** The tooltip: the context used, the session's total and its requests' cost. */
  get tooltipText(): string {
    const lines = [this.last ? `Context: ${this.last.used.toLocaleString("en-US")} of ${this.last.size.toLocaleString("en-US")} tokens` : ""];
    if (this.cost_) lines.push(`This session: ${moneyText(this.cost_)}`);
    if (this.lastRequest) lines.push(`Last request: ${this.lastRequest} (${this.requests} ${this.requests === 1 ? "request" : "requests"} seen here)`);
    return lines.filter((l) => l).join("\n");
  }

  private render(): void {
    this.item.tooltip = this.tooltipText;
    if (this.inFront && this.item.text !== "") this.item.show();
    else this.item.hide();
  }

  dispose(): void {
    this.item.dispose();
  }
}
