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

/** The status bar item showing the session's tokens and cost. */
export class UsageStatus {
  private readonly item: vscode.StatusBarItem;
  private cost_: { readonly amount: number; readonly currency: string } | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem("dsh.usage", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "dsh usage";
    this.item.command = "dsh.chat.focus";
  }

  /** Shows u. */
  update(u: Pick<UsageUpdate, "used" | "size" | "cost">): void {
    if (u.cost) this.cost_ = { amount: u.cost.amount, currency: u.cost.currency };
    this.item.text = usageText(u);
    this.item.tooltip = `Context: ${u.used} of ${u.size} tokens`;
    this.item.show();
  }

  /** Hides the item (a new session). */
  reset(): void {
    this.cost_ = undefined;
    this.item.hide();
  }

  /** The session's cost so far, if the agent has said. */
  get cost(): { readonly amount: number; readonly currency: string } | undefined {
    return this.cost_;
  }

  /** The text shown. */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
