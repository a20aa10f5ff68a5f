// A notice (sessionUpdate "notice") as VS Code's own notification. The
// chat notes it too (src/webview/notices.ts), where it stays.
import type { Notice } from "@agentclientprotocol/sdk";
import * as vscode from "vscode";

/**
 * The notification's text: "dsh: <title>", then the description on the
 * same line (a notification shows no line breaks: they become " | ").
 */
export function noticeText(n: Pick<Notice, "title" | "description">): string {
  const detail = (n.description ?? "").trim().replace(/\s*\n\s*/g, " | ");
  return detail === "" ? `dsh: ${n.title}` : `dsh: ${n.title} — ${detail}`;
}

/**
 * Shows n as an error, a warning or an information message by its
 * severity; an unknown severity (the schema leaves room for more) is
 * information. It does not wait for the notification to close.
 */
export function showNotice(n: Notice): void {
  const text = noticeText(n);
  switch (n.severity) {
    case "error":
      void vscode.window.showErrorMessage(text);
      return;
    case "warning":
      void vscode.window.showWarningMessage(text);
      return;
    default:
      void vscode.window.showInformationMessage(text);
  }
}
