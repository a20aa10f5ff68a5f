import * as vscode from "vscode";
import { AgentHost, workspaceCwd } from "./agentHost";
import { ChatView, CHAT_VIEW_ID } from "./chat/view";
import { COMMANDS } from "./commands";
import { DiffContentProvider, DIFF_SCHEME } from "./diff/provider";
import { closeStaleTabs } from "./diff/staleTabs";
import { tabSession } from "./chat/tabState";
import { errorMessage } from "./errors";
import { Follower } from "./follow";
import { PlanDocuments, PLAN_SCHEME } from "./plan/planDocuments";
import { InlineReview } from "./review/inlineReview";
import { blobFiles } from "./review/blobFiles";
import { EditFollower } from "./review/editFollower";
import { ReviewList } from "./review/reviewList";
import { StoredReviews } from "./review/storedReviews";
import { API_KEY_SECRET, promptForApiKey } from "./secrets";
import { editorContextOf } from "./session/activeEditor";
import type { FromWebview } from "./chat/messages";
import { Chats, type ChatPlace } from "./session/chats";
import { ChatController, type ControllerDeps } from "./session/controller";
import type { SessionTitles } from "./session/history";
import { restoreFile } from "./session/files";
import { ResultsLog } from "./session/resultsLog";
import { readSettings } from "./settings";
import { UsageStatus } from "./status/usage";
import { CommandTerminals } from "./terminal/terminals";

/** The workspaceState key of the session last shown (reopened after a reload). */
const LAST_SESSION = "dsh.lastSession";
/** The workspaceState key of the titles the user gave conversations (session id → title). */
const SESSION_TITLES = "dsh.sessionTitles";

/** The key the Agent view's review is kept under. */
const SIDEBAR_REVIEW = "view";

/** The key an editor tab's review is kept under: the conversation it shows (none yet: nothing to keep). */
function tabReview(sessionId: string | undefined): string | undefined {
  return sessionId === undefined ? undefined : `tab:${sessionId}`;
}

/** What activate() returns: handles for tests and other extensions. */
export interface DshApi {
  /** The Agent view's conversation. */
  readonly controller: ChatController;
  /** Every open conversation (the Agent view's and the editor tabs'). */
  readonly chats: Chats;
  readonly host: AgentHost;
  /** Resolves once the Agent view's review kept by the last window is read back (or found to be none). */
  readonly reviewLoaded: Promise<void>;
}

/** The webview panel type of a conversation in an editor tab. */
export const TAB_VIEW_TYPE = "dsh.conversation";

/**
 * Activates the extension: registers the chat view, the diff document
 * provider, the commands and the status bar item. No process starts here;
 * dsh-acp starts when the chat view opens or a command needs it. Several
 * conversations may be open at once (the Agent view and editor tabs), on
 * the one dsh-acp process; each has its own turns, approvals, review,
 * terminals and usage.
 */
export function activate(context: vscode.ExtensionContext): DshApi {
  // The diff and plan tabs a reload reopened show nothing true any more: their texts were in memory.
  const stale = (uri: vscode.Uri): boolean => (uri.scheme === DIFF_SCHEME && !diffs.knows(uri)) || (uri.scheme === PLAN_SCHEME && !plans.knows(uri));
  const closeStale = (): void => void closeStaleTabs(stale).catch(() => undefined);
  const diffs: DiffContentProvider = new DiffContentProvider(closeStale);
  const plans = new PlanDocuments();
  const follower = new Follower(() => readSettings().follow);
  const results = new ResultsLog(process.env["DSH_VSCODE_RESULTS"]);
  const chats = new Chats();
  const version = packageVersion(context.extension.packageJSON);
  const titles: SessionTitles = {
    get: (id) => context.workspaceState.get<Record<string, string>>(SESSION_TITLES)?.[id],
    set: (id, title) => {
      const others = Object.entries(context.workspaceState.get<Record<string, string>>(SESSION_TITLES) ?? {}).filter(([k]) => k !== id);
      void context.workspaceState.update(SESSION_TITLES, Object.fromEntries(title === undefined ? others : [...others, [id, title]]));
    },
  };
  // The latency probe of the end-to-end test reads when each prompt's first answer chunk passed the extension host (TESTING.md).
  const marks = new ResultsLog(process.env["DSH_VSCODE_MARKS"]);
  const host: AgentHost = new AgentHost(context.secrets, chats, version, chats, marks.enabled ? (mark) => void marks.record("chunk", { ...mark }) : undefined);
  const inline: InlineReview = new InlineReview(async (p) => chats.reviewing(p)?.reviewHunks(p));
  // Each chat's review is kept in the workspace's storage (none without a workspace: the review then ends with the window).
  const stored = context.storageUri ? new StoredReviews(context.workspaceState, blobFiles(vscode.Uri.joinPath(context.storageUri, "review"))) : undefined;
  // The user's edits of a file under review: once they pause, its counts and inline review follow.
  const edits = new EditFollower((p) => void chats.reviewing(p)?.followReviewEdits());

  /**
   * A conversation shown in view (at place): its own controller and what
   * only it uses; disposed with dispose(). Its review is kept under
   * reviewKey (read at each change) and taken back from kept, when given.
   */
  const openChat = (
    view: ChatView,
    place: ChatPlace,
    reviewKey: (c: ChatController) => string | undefined,
    kept: string | undefined,
    extra: Partial<Pick<ControllerDeps, "memory" | "sessionsShown">> = {},
  ): { controller: ChatController; reviewLoaded: Promise<void>; dispose: () => void } => {
    const usage = new UsageStatus();
    const terminals = new CommandTerminals();
    const controller: ChatController = new ChatController({
      agent: () => host.get(),
      post: (m) => view.post(m),
      diffs,
      plans,
      review: new ReviewList(restoreFile, stored?.forChat(() => reviewKey(controller))),
      terminals,
      follower,
      usage,
      results,
      reviewChanged: () => void inline.refresh(),
      cwd: workspaceCwd,
      authRequired: (way) => host.signIn(way),
      visible: () => view.isVisible,
      keyStored: async () => (await context.secrets.get(API_KEY_SECRET)) !== undefined,
      titles,
      openTab: () => void vscode.commands.executeCommand(COMMANDS.newConversationTab),
      // One view per session: opening one another view shows brings that view forward.
      elsewhere: (id) => chats.elsewhere(controller, id),
      ...extra,
    });
    chats.add(controller, usage, place);
    controller.offerContext(editorContextOf(vscode.window.activeTextEditor));
    const reviewLoaded = (kept === undefined || !stored ? Promise.resolve(undefined) : stored.load(kept))
      .then((state) => controller.loadReview(state))
      .catch((e: unknown) => controller.notice("error", `dsh: the review kept from the last window could not be read: ${errorMessage(e)}`));
    return {
      controller,
      reviewLoaded,
      dispose: () => {
        chats.remove(controller);
        usage.dispose();
        terminals.dispose();
      },
    };
  };
  /** The view's messages go to its chat, which becomes the active one. */
  const route = (chat: () => ChatController, view: () => ChatView) => (m: FromWebview) => {
    chats.activate(chat());
    chat().handle(m).catch((e: unknown) => view().post({ type: "notice", level: "error", text: errorMessage(e) }));
  };

  // The sidebar's title bar has History, New and New tab (package.json view/title).
  const view: ChatView = new ChatView(context.extensionUri, route(() => controller, () => view), true);
  const sidebar = openChat(view, { reveal: () => void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`) }, () => SIDEBAR_REVIEW, SIDEBAR_REVIEW, {
    memory: {
      last: () => context.workspaceState.get<string>(LAST_SESSION),
      remember: (id) => void context.workspaceState.update(LAST_SESSION, id),
    },
  });
  const controller = sidebar.controller;

  /**
   * Opens a conversation in an editor tab, titled after its session: a
   * new one, or (restored, after a window reload) the tab VS Code kept
   * and the session it showed.
   */
  const openTab = (restored?: { readonly panel: vscode.WebviewPanel; readonly sessionId: string | undefined }): void => {
    const panel = restored?.panel ?? vscode.window.createWebviewPanel(TAB_VIEW_TYPE, "dsh: new conversation", vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true });
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, "media", "dsh.svg");
    const tabView: ChatView = new ChatView(context.extensionUri, route(() => tab.controller, () => tabView));
    const reopen = restored?.sessionId;
    const tab = openChat(tabView, { reveal: () => panel.reveal(), restoring: reopen }, (c) => tabReview(c.currentSession), tabReview(reopen), {
      sessionsShown: (title) => (panel.title = `dsh: ${title}`),
      ...(reopen === undefined ? {} : { memory: { last: () => reopen, remember: () => undefined } }),
    });
    if (reopen !== undefined) chats.restored(tab.controller, reopen);
    tabView.resolveWebviewView(panel);
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) chats.activate(tab.controller);
    });
    panel.onDidDispose(() => tab.dispose());
  };

  const pathArg = (v: unknown): string => (typeof v === "string" ? v : "");
  const indexArg = (v: unknown): number => (typeof v === "number" ? v : -1);
  const run = (f: () => Promise<void>) => () => f().catch((e: unknown) => void vscode.window.showErrorMessage(`dsh: ${errorMessage(e)}`));
  // Commands without a conversation of their own act on the active one; those of a file under review on the chat reviewing it.
  const active = (): ChatController => chats.active ?? controller;
  const reviewer = (p: unknown): ChatController => chats.reviewing(pathArg(p)) ?? active();
  closeStale();
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs),
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, plans),
    vscode.commands.registerCommand(COMMANDS.setApiKey, run(async () => {
      const changed = await promptForApiKey(context.secrets);
      if (!changed) return;
      const text = changed === "stored" ? "dsh: your API key is stored in VS Code's secret storage." : "dsh: your API key is removed.";
      for (const c of chats.all()) c.notice("info", text);
      void vscode.window.showInformationMessage(text);
      await host.restart();
    })),
    vscode.commands.registerCommand(COMMANDS.newSession, run(() => active().newSession())),
    vscode.commands.registerCommand(COMMANDS.newConversationTab, () => openTab()),
    vscode.commands.registerCommand(COMMANDS.viewNewSession, run(() => controller.newSession())),
    vscode.commands.registerCommand(COMMANDS.viewConversations, run(() => controller.conversations())),
    vscode.window.registerWebviewPanelSerializer(TAB_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => {
        openTab({ panel, sessionId: tabSession(state) });
        return Promise.resolve();
      },
    }),
    vscode.commands.registerCommand(COMMANDS.conversations, run(() => active().conversations())),
    vscode.commands.registerCommand(COMMANDS.stop, run(() => active().stop())),
    vscode.commands.registerCommand(COMMANDS.reviewChanges, run(() => active().reviewChanges())),
    vscode.commands.registerCommand(COMMANDS.acceptAll, run(() => active().acceptAll())),
    vscode.commands.registerCommand(COMMANDS.rejectAll, run(() => active().rejectAll())),
    vscode.commands.registerCommand(COMMANDS.acceptFile, (p: unknown) => run(() => reviewer(p).reviewFile("accept", pathArg(p)))()),
    vscode.commands.registerCommand(COMMANDS.rejectFile, (p: unknown) => run(() => reviewer(p).reviewFile("reject", pathArg(p)))()),
    vscode.commands.registerCommand(COMMANDS.keepHunk, (p: unknown, i: unknown) => run(() => reviewer(p).keepHunk(pathArg(p), indexArg(i)))()),
    vscode.commands.registerCommand(COMMANDS.undoHunk, (p: unknown, i: unknown) => run(() => reviewer(p).undoHunk(pathArg(p), indexArg(i)))()),
    vscode.languages.registerCodeLensProvider({ scheme: "file" }, inline),
    vscode.window.onDidChangeActiveTextEditor((e) => {
      for (const c of chats.all()) c.offerContext(editorContextOf(e));
    }),
    vscode.window.onDidChangeTextEditorSelection((e) => {
      for (const c of chats.all()) c.offerContext(editorContextOf(e.textEditor));
    }),
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      for (const e of editors) void inline.decorate(e);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length > 0 && e.document.uri.scheme === "file" && chats.reviewing(e.document.uri.fsPath)) edits.edited(e.document.uri.fsPath);
    }),
    edits,
    inline,
    // A key stored or removed (by any window, or the Set API Key command) is told in every chat's welcome.
    context.secrets.onDidChange((e) => {
      if (e.key === API_KEY_SECRET) for (const c of chats.all()) void c.tellKey();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("dsh.path") || e.affectsConfiguration("dsh.model") || e.affectsConfiguration("dsh.permissionPreset")) void host.restart();
    }),
    { dispose: () => sidebar.dispose() },
    diffs,
    plans,
    { dispose: () => void host.dispose() },
  );
  return { controller, chats, host, reviewLoaded: sidebar.reviewLoaded };
}

/** The version in the extension's package.json ("0.0.0" when it has none). */
function packageVersion(packageJSON: unknown): string {
  const version = packageJSON !== null && typeof packageJSON === "object" ? (packageJSON as { version?: unknown }).version : undefined;
  return typeof version === "string" ? version : "0.0.0";
}

/** Nothing to do: every resource is in the context's subscriptions. */
export function deactivate(): void {
  // VS Code disposes of context.subscriptions itself.
}
