import * as vscode from "vscode";
import type { UsageUpdate } from "@agentclientprotocol/sdk";

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(n);
}

/** The status bar text for a usage_update: context used of size, and the cost so far. */
export function usageText(u: Pick<UsageUpdate, "used" | "size" | "cost">): string {
  const cost = u.cost ? ` · ${u.cost.currency === "USD" ? "$" : `${u.cost.currency} `}${u.cost.amount.toFixed(4)}` : "";
  return `dsh ${compact(u.used)}/${compact(u.size)}${cost}`;
}

/** The status bar item showing the session's tokens and cost. */
export class UsageStatus {
  private readonly item: vscode.StatusBarItem;

  constructor() {
    this.item = vscode.window.createStatusBarItem("dsh.usage", vscode.StatusBarAlignment.Right, 100);
    this.item.name = "dsh usage";
    this.item.command = "dsh.chat.focus";
  }

  /** Shows u. */
  update(u: Pick<UsageUpdate, "used" | "size" | "cost">): void {
    this.item.text = usageText(u);
    this.item.tooltip = `Context: ${u.used} of ${u.size} tokens`;
    this.item.show();
  }

  /** Hides the item (a new session). */
  reset(): void {
    this.item.hide();
  }

  /** The text shown. */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    this.item.dispose();
  }
}
