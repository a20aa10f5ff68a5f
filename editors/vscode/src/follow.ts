import * as vscode from "vscode";
import type { ToolCallLocation } from "@agentclientprotocol/sdk";

/**
 * Opens path in the editor with the cursor on line (a 0-based row, as
 * Zed reads ACP locations), without taking focus from the chat.
 */
export async function revealLocation(path: string, line?: number | null, preserveFocus = true): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  const row = Math.max(0, Math.min(line ?? 0, Math.max(0, doc.lineCount - 1)));
  const pos = new vscode.Position(row, 0);
  await vscode.window.showTextDocument(doc, {
    preview: true,
    preserveFocus,
    selection: new vscode.Range(pos, pos),
  });
}

/**
 * Follows the agent: reveals the first of a tool call's locations when
 * following is on and the location is new for that call.
 */
export class Follower {
  private readonly shown = new Map<string, string>();
  private readonly enabled: () => boolean;

  constructor(enabled: () => boolean) {
    this.enabled = enabled;
  }

  /** Reveals locations[0] of toolCallId unless already shown; returns whether it did. */
  async follow(toolCallId: string, locations: readonly ToolCallLocation[] | null | undefined): Promise<boolean> {
    const first = locations?.[0];
    if (!first || !this.enabled()) return false;
    const key = `${first.path}:${first.line ?? ""}`;
    if (this.shown.get(toolCallId) === key) return false;
    this.shown.set(toolCallId, key);
    try {
      await revealLocation(first.path, first.line);
      return true;
    } catch {
      return false;
    }
  }
}
