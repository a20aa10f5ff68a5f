import * as vscode from "vscode";
import { randomBytes } from "node:crypto";

/** A fresh nonce for the webview's one script. */
export function makeNonce(): string {
  return randomBytes(18).toString("base64").replace(/[^A-Za-z0-9]/g, "");
}

/**
 * The chat view's HTML: a strict Content-Security-Policy (no remote
 * resources, no inline script, the one bundled script by nonce, styles
 * from the extension only), the bundled webview script and stylesheet.
 * In a view whose title bar holds History, New and New tab (the
 * sidebar's, package.json view/title), the toolbar's own are hidden; an
 * editor tab has no such title bar and shows them.
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string, titleBarActions = false): string {
  const inTitle = titleBarActions ? " hidden" : "";
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "dist", "webview.js"));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, "media", "chat.css"));
  const csp = [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>dsh</title>
</head>
<body>
<header class="toolbar">
  <select data-testid="sessions-select" id="sessions" title="Conversations" aria-label="Conversations"></select>
  <button data-testid="history-button" id="history" class="secondary" title="Search, open, rename or delete conversations"${inTitle}>History</button>
  <button data-testid="new-session-button" id="new-session" class="secondary" title="New conversation"${inTitle}>New</button>
  <button data-testid="new-tab-button" id="new-tab" class="secondary" title="New conversation in an editor tab (several can run at once)"${inTitle}>New tab</button>
</header>
<div id="config" class="pickers"></div>
<main id="log" data-testid="chat-log" aria-live="polite"></main>
<section id="review" data-testid="review-list" hidden></section>
<footer>
  <div id="busy" class="busy" data-testid="busy" role="status" hidden><span class="spinner" aria-hidden="true"></span> dsh is working…</div>
  <div id="completions" data-testid="slash-completions" hidden></div>
  <div id="editing" class="editing-chip" data-testid="editing" hidden><span>Editing your last message: Send undoes its turn, then sends this instead.</span><button class="editing-cancel secondary" data-testid="editing-cancel" title="Stop editing (Escape)" aria-label="Stop editing">×</button></div>
  <div id="images" class="images" data-testid="image-list" hidden></div>
  <div id="context" class="context-chip" data-testid="context-chip" hidden><span class="context-label" title="Sent with your message as context"></span><button class="context-remove secondary" data-testid="context-remove" title="Do not send this as context" aria-label="Remove context">×</button></div>
  <textarea data-testid="chat-input" id="input" rows="3" aria-label="Message to dsh" placeholder="Ask dsh… (/ for commands, Enter to send, Shift+Enter for a new line)"></textarea>
  <div class="buttons">
    <button data-testid="stop-button" id="stop" class="secondary" disabled>Stop</button>
    <button data-testid="send-button" id="send">Send</button>
  </div>
</footer>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
