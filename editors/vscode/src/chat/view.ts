import * as vscode from "vscode";
import { chatHtml, makeNonce } from "./html";
import { isFromWebview, type FromWebview, type ToWebview } from "./messages";

/** The id of the chat view (package.json contributes.views). */
export const CHAT_VIEW_ID = "dsh.chat";

/** What the view keeps of a WebviewView or an editor tab's WebviewPanel (both say whether they are visible). */
type ResolvedView = Pick<vscode.WebviewView, "webview" | "onDidDispose"> & Partial<Pick<vscode.WebviewView, "visible">>;

/**
 * The chat WebviewView. Messages posted before the webview has loaded and
 * said "ready" are queued and sent in order then.
 */
export class ChatView implements vscode.WebviewViewProvider {
  private view: ResolvedView | undefined;
  private ready = false;
  private queue: ToWebview[] = [];
  private readonly extensionUri: vscode.Uri;
  private readonly onMessage: (m: FromWebview) => void;
  private readonly titleBarActions: boolean;

  /** titleBarActions: the view's title bar has History, New and New tab (the sidebar's), so its toolbar does not repeat them. */
  constructor(extensionUri: vscode.Uri, onMessage: (m: FromWebview) => void, titleBarActions = false) {
    this.extensionUri = extensionUri;
    this.onMessage = onMessage;
    this.titleBarActions = titleBarActions;
  }

  /** Called by VS Code when the view becomes visible the first time (or with an editor tab's panel). */
  resolveWebviewView(view: ResolvedView): void {
    this.view = view;
    this.ready = false;
    view.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "dist"), vscode.Uri.joinPath(this.extensionUri, "media")] };
    view.webview.html = chatHtml(view.webview, this.extensionUri, makeNonce(), this.titleBarActions);
    view.webview.onDidReceiveMessage((m: unknown) => {
      if (!isFromWebview(m)) return;
      if (m.type === "ready") {
        this.ready = true;
        const pending = this.queue;
        this.queue = [];
        for (const p of pending) void view.webview.postMessage(p);
      }
      this.onMessage(m);
    });
    view.onDidDispose(() => {
      this.view = undefined;
      this.ready = false;
    });
  }

  /** Sends m to the webview now, or once it is ready. */
  post(m: ToWebview): void {
    if (this.view && this.ready) void this.view.webview.postMessage(m);
    else this.queue.push(m);
  }

  /** Whether the view is in sight: resolved, and visible as VS Code says (ready, when it does not say). */
  get isVisible(): boolean {
    return this.view !== undefined && (this.view.visible ?? this.ready);
  }

  /** Whether the webview is showing and ready. */
  get isReady(): boolean {
    return this.ready;
  }
}
