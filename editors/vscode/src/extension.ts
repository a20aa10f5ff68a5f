import * as vscode from "vscode";
import { AgentHost, workspaceCwd } from "./agentHost";
import { ChatView, CHAT_VIEW_ID } from "./chat/view";
import { COMMANDS } from "./commands";
import { DiffContentProvider, DIFF_SCHEME } from "./diff/provider";
import { errorMessage } from "./errors";
import { Follower } from "./follow";
import { InlineReview } from "./review/inlineReview";
import { ReviewList } from "./review/reviewList";
import { promptForApiKey } from "./secrets";
import { editorContextOf } from "./session/activeEditor";
import { ChatController } from "./session/controller";
import { restoreFile } from "./session/files";
import { ResultsLog } from "./session/resultsLog";
import { readSettings } from "./settings";
import { UsageStatus } from "./status/usage";
import { CommandTerminals } from "./terminal/terminals";

/** The workspaceState key of the session last shown (reopened after a reload). */
const LAST_SESSION = "dsh.lastSession";
/** The workspaceState key of the titles the user gave conversations (session id → title). */
const SESSION_TITLES = "dsh.sessionTitles";

/** What activate() returns: handles for tests and other extensions. */
export interface DshApi {
  readonly controller: ChatController;
  readonly host: AgentHost;
}

/**
 * Activates the extension: registers the chat view, the diff document
 * provider, the commands and the status bar item. No process starts here;
 * dsh-acp starts when the chat view opens or a command needs it.
 */
export function activate(context: vscode.ExtensionContext): DshApi {
  const diffs = new DiffContentProvider();
  const terminals = new CommandTerminals();
  const usage = new UsageStatus();
  const review = new ReviewList(restoreFile);
  const version = packageVersion(context.extension.packageJSON);
  const view: ChatView = new ChatView(context.extensionUri, (m) => {
    controller.handle(m).catch((e: unknown) => view.post({ type: "notice", level: "error", text: errorMessage(e) }));
  });
  const controller: ChatController = new ChatController({
    agent: () => host.get(),
    post: (m) => view.post(m),
    diffs,
    review,
    terminals,
    follower: new Follower(() => readSettings().follow),
    usage,
    results: new ResultsLog(process.env["DSH_VSCODE_RESULTS"]),
    reviewChanged: () => void inline.refresh(),
    cwd: workspaceCwd,
    authRequired: () => host.signIn(),
    memory: {
      last: () => context.workspaceState.get<string>(LAST_SESSION),
      remember: (id) => void context.workspaceState.update(LAST_SESSION, id),
    },
    titles: {
      get: (id) => context.workspaceState.get<Record<string, string>>(SESSION_TITLES)?.[id],
      set: (id, title) => {
        const others = Object.entries(context.workspaceState.get<Record<string, string>>(SESSION_TITLES) ?? {}).filter(([k]) => k !== id);
        void context.workspaceState.update(SESSION_TITLES, Object.fromEntries(title === undefined ? others : [...others, [id, title]]));
      },
    },
  });
  const host: AgentHost = new AgentHost(context.secrets, controller, version, controller);
  const inline: InlineReview = new InlineReview((p) => controller.reviewHunks(p));
  const pathArg = (v: unknown): string => (typeof v === "string" ? v : "");
  const indexArg = (v: unknown): number => (typeof v === "number" ? v : -1);
  const run = (f: () => Promise<void>) => () => f().catch((e: unknown) => void vscode.window.showErrorMessage(`dsh: ${errorMessage(e)}`));
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs),
    vscode.commands.registerCommand(COMMANDS.setApiKey, run(async () => {
      const changed = await promptForApiKey(context.secrets);
      if (!changed) return;
      const text = changed === "stored" ? "dsh: your API key is stored in VS Code's secret storage." : "dsh: your API key is removed.";
      view.post({ type: "notice", level: "info", text });
      void vscode.window.showInformationMessage(text);
      await host.restart();
    })),
    vscode.commands.registerCommand(COMMANDS.newSession, run(() => controller.newSession())),
    vscode.commands.registerCommand(COMMANDS.conversations, run(() => controller.conversations())),
    vscode.commands.registerCommand(COMMANDS.stop, run(() => controller.stop())),
    vscode.commands.registerCommand(COMMANDS.reviewChanges, run(() => controller.reviewChanges())),
    vscode.commands.registerCommand(COMMANDS.acceptAll, run(() => controller.acceptAll())),
    vscode.commands.registerCommand(COMMANDS.rejectAll, run(() => controller.rejectAll())),
    vscode.commands.registerCommand(COMMANDS.acceptFile, (p: unknown) => run(() => controller.reviewFile("accept", pathArg(p)))()),
    vscode.commands.registerCommand(COMMANDS.rejectFile, (p: unknown) => run(() => controller.reviewFile("reject", pathArg(p)))()),
    vscode.commands.registerCommand(COMMANDS.keepHunk, (p: unknown, i: unknown) => run(() => controller.keepHunk(pathArg(p), indexArg(i)))()),
    vscode.commands.registerCommand(COMMANDS.undoHunk, (p: unknown, i: unknown) => run(() => controller.undoHunk(pathArg(p), indexArg(i)))()),
    vscode.languages.registerCodeLensProvider({ scheme: "file" }, inline),
    vscode.window.onDidChangeActiveTextEditor((e) => controller.offerContext(editorContextOf(e))),
    vscode.window.onDidChangeTextEditorSelection((e) => controller.offerContext(editorContextOf(e.textEditor))),
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      for (const e of editors) void inline.decorate(e);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme === "file" && controller.underReview(e.document.uri.fsPath)) void inline.refresh();
    }),
    inline,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("dsh.path") || e.affectsConfiguration("dsh.model") || e.affectsConfiguration("dsh.permissionPreset")) void host.restart();
    }),
    usage,
    diffs,
    terminals,
    { dispose: () => void host.dispose() },
  );
  controller.offerContext(editorContextOf(vscode.window.activeTextEditor));
  return { controller, host };
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
