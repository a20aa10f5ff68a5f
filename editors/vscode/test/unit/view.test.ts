import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import * as vscode from "vscode";
import { chatHtml, makeNonce } from "../../src/chat/html";
import { isFromWebview, type FromWebview, type ToWebview } from "../../src/chat/messages";
import { ChatView } from "../../src/chat/view";

function fakeWebview(): { webview: vscode.Webview; posted: unknown[]; receive: (m: unknown) => void } {
  const posted: unknown[] = [];
  const listeners: ((m: unknown) => void)[] = [];
  const webview = {
    options: {},
    html: "",
    cspSource: "vscode-webview://abc",
    asWebviewUri: (u: vscode.Uri) => vscode.Uri.from({ scheme: "vscode-webview", path: u.path }),
    postMessage: async (m: unknown) => {
      posted.push(m);
      return true;
    },
    onDidReceiveMessage: (l: (m: unknown) => void) => {
      listeners.push(l);
      return { dispose: () => undefined };
    },
  } as unknown as vscode.Webview;
  return { webview, posted, receive: (m) => listeners.forEach((l) => l(m)) };
}

describe("chat webview", () => {
  it("has a strict CSP: no remote resources, the one script by nonce", () => {
    const { webview } = fakeWebview();
    const nonce = makeNonce();
    assert.match(nonce, /^[A-Za-z0-9]{16,}$/);
    const html = chatHtml(webview, vscode.Uri.file("/ext"), nonce);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'`));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.doesNotMatch(html, /https?:\/\//);
    assert.equal((html.match(/<script /g) ?? []).length, 1);
    assert.match(html, new RegExp(`<script nonce="${nonce}" src="vscode-webview:/ext/dist/webview.js">`));
    for (const id of ["chat-input", "send-button", "stop-button", "new-session-button", "sessions-select", "review-list"]) {
      assert.match(html, new RegExp(`data-testid="${id}"`));
    }
  });

  it("hides History, New and New tab in a view whose title bar has them (the sidebar), not in an editor tab", () => {
    const { webview } = fakeWebview();
    const hidden = (html: string, id: string) => new RegExp(`data-testid="${id}"[^>]*\\shidden>`).test(html);
    for (const [titleBar, want] of [[true, true], [false, false]] as const) {
      const html = chatHtml(webview, vscode.Uri.file("/ext"), makeNonce(), titleBar);
      for (const id of ["history-button", "new-session-button", "new-tab-button"]) assert.equal(hidden(html, id), want, `${id} with title bar actions ${String(titleBar)}`);
      assert.equal(hidden(html, "send-button"), false);
    }
  });

  it("queues messages until the webview is ready, then sends them in order", () => {
    const received: FromWebview[] = [];
    const view = new ChatView(vscode.Uri.file("/ext"), (m) => received.push(m));
    view.post({ type: "userPrompt", text: "early" });
    const { webview, posted, receive } = fakeWebview();
    view.resolveWebviewView({ webview, onDidDispose: () => new vscode.Disposable(() => undefined) });
    view.post({ type: "userPrompt", text: "before ready" });
    assert.deepEqual(posted, []);
    receive({ type: "ready" });
    view.post({ type: "turn", running: true });
    const texts = (posted as ToWebview[]).map((m) => (m.type === "userPrompt" ? m.text : m.type));
    assert.deepEqual(texts, ["early", "before ready", "turn"]);
    receive({ type: "bogus" });
    receive(null);
    receive({ type: "prompt", text: "hi" });
    assert.deepEqual(received.map((m) => m.type), ["ready", "prompt"]);
  });

  it("is in sight as VS Code says: not before it is resolved, and as its visible flag then", () => {
    const view = new ChatView(vscode.Uri.file("/ext"), () => undefined);
    assert.equal(view.isVisible, false, "never shown");
    const shown = { visible: true };
    view.resolveWebviewView({ webview: fakeWebview().webview, onDidDispose: () => new vscode.Disposable(() => undefined), get visible() {
      return shown.visible;
    } });
    assert.equal(view.isVisible, true);
    shown.visible = false;
    assert.equal(view.isVisible, false, "collapsed or behind another view");
  });

  it("checks message tags", () => {
    assert.equal(isFromWebview({ type: "stop" }), true);
    assert.equal(isFromWebview({ type: "eval" }), false);
    assert.equal(isFromWebview("stop"), false);
  });
});
