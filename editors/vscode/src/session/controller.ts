import { currentText } from "../fs/documents";
import type {
  ContentBlock,
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  SessionNotification,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import { isAuthRequired } from "../auth/signIn";
import type { ClientHandlers } from "../client/handlers";
import type { FromWebview, ToWebview } from "../chat/messages";
import { openDiff, type DiffContentProvider } from "../diff/provider";
import { revealLocation, type Follower } from "../follow";
import { readTextFile } from "../fs/readText";
import { deleteFile, writeWholeFile } from "../fs/writeText";
import { PermissionBroker } from "../permission/broker";
import type { ReviewList } from "../review/reviewList";
import { pickReview } from "../review/reviewPick";
import type { UsageStatus } from "../status/usage";
import type { CommandTerminals } from "../terminal/terminals";
import { commandOf, ToolCallStore } from "./toolCalls";
import type { ResultsLog } from "./resultsLog";

/** The agent operations the controller uses (AgentClient, or a fake in tests). */
export interface AgentPort {
  newSession(cwd: string): Promise<{ sessionId: string; configOptions?: SessionConfigOption[] | null }>;
  loadSession(sessionId: string, cwd: string): Promise<{ configOptions?: SessionConfigOption[] | null } | void>;
  resumeSession(sessionId: string, cwd: string): Promise<{ configOptions?: SessionConfigOption[] | null }>;
  listSessions(cwd?: string): Promise<{ sessions: import("@agentclientprotocol/sdk").SessionInfo[] }>;
  prompt(sessionId: string, prompt: ContentBlock[]): Promise<{ stopReason: string }>;
  cancel(sessionId: string): Promise<void>;
  setConfigOption(sessionId: string, configId: string, value: string): Promise<SessionConfigOption[]>;
}

/** How many updates of a session not yet known are kept while session/new runs. */
const EARLY_LIMIT = 256;

/** What the controller drives. */
export interface ControllerDeps {
  readonly agent: () => Promise<AgentPort>;
  readonly post: (m: ToWebview) => void;
  readonly diffs: DiffContentProvider;
  readonly review: ReviewList;
  readonly terminals: CommandTerminals;
  readonly follower: Follower;
  readonly usage: UsageStatus;
  readonly results: ResultsLog;
  /** The directory sessions run in. */
  readonly cwd: () => string;
  /** Called when the agent refused for want of an API key. */
  readonly authRequired?: () => Promise<void>;
}

/**
 * One chat: the current session, its tool calls, and everything the
 * agent's updates and requests drive in the editor (the chat view, diffs,
 * the review list, terminals, following, the status bar). It is also the
 * client's ClientHandlers.
 */
export class ChatController implements ClientHandlers {
  private readonly deps: ControllerDeps;
  private readonly calls = new ToolCallStore();
  private readonly broker: PermissionBroker;
  private sessionId: string | undefined;
  private running = false;
  /** Updates of other sessions that arrived while session/new was awaited (the new session's may come first). */
  private early: SessionNotification[] | undefined;

  constructor(deps: ControllerDeps) {
    this.deps = deps;
    this.broker = new PermissionBroker({
      inline: {
        show: (requestId, req) =>
          deps.post({ type: "permission", requestId, toolCallId: req.toolCall.toolCallId, title: req.toolCall.title ?? this.calls.get(req.toolCall.toolCallId)?.title ?? "", options: req.options }),
        resolved: (requestId, outcome) => {
          deps.post({ type: "permissionResolved", requestId });
          void deps.results.record("permission", { outcome: outcome.outcome });
        },
      },
      call: (id) => this.calls.get(id),
      showDiff: async (call) => {
        const d = call.diffs[0];
        if (d) await openDiff(deps.diffs, d.path, d.oldText);
      },
    });
  }

  /** The current session id, if one was started. */
  get currentSession(): string | undefined {
    return this.sessionId;
  }

  /** Whether a prompt is running. */
  get isRunning(): boolean {
    return this.running;
  }

  /** Handles a message from the chat view. */
  async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case "ready":
        return this.refreshSessions();
      case "prompt":
        await this.prompt(m.text);
        return;
      case "stop":
        return this.stop();
      case "newSession":
        return this.newSession();
      case "loadSession":
        return this.loadSession(m.sessionId);
      case "setConfig":
        return this.setConfig(m.configId, m.value);
      case "permission":
        return this.broker.answerInline(m.requestId, m.optionId);
      case "openPath":
        return revealLocation(m.path, m.line, false);
      case "openDiff": {
        const d = this.calls.get(m.toolCallId)?.diffs.find((x) => x.path === m.path);
        if (d) await openDiff(this.deps.diffs, d.path, d.oldText);
        return;
      }
      case "review":
        return this.reviewAction(m.action, m.path);
      case "reviewAll":
        return m.action === "accept" ? this.acceptAll() : this.rejectAll();
    }
  }

  /** Starts a fresh session (the view is cleared). */
  async newSession(): Promise<void> {
    const agent = await this.deps.agent();
    this.early = [];
    let res: Awaited<ReturnType<AgentPort["newSession"]>>;
    try {
      res = await agent.newSession(this.deps.cwd());
    } catch (e) {
      this.early = undefined;
      throw e;
    }
    const early = this.early.filter((n) => n.sessionId === res.sessionId);
    this.early = undefined;
    this.switchTo(res.sessionId);
    if (res.configOptions) this.deps.post({ type: "config", options: res.configOptions });
    for (const n of early) await this.sessionUpdate(n);
    await this.refreshSessions();
  }

  /** Loads a stored session: the agent replays it into the view. */
  async loadSession(sessionId: string): Promise<void> {
    const agent = await this.deps.agent();
    this.switchTo(sessionId);
    const res = await agent.loadSession(sessionId, this.deps.cwd());
    if (res && res.configOptions) this.deps.post({ type: "config", options: res.configOptions });
    this.deps.review.startTurn();
    this.postReview();
  }

  /**
   * Picks the current session up again in a restarted agent
   * (session/resume); when that fails, the next prompt starts a new one.
   */
  async reattach(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) return this.refreshSessions();
    try {
      const res = await (await this.deps.agent()).resumeSession(sessionId, this.deps.cwd());
      if (res.configOptions) this.deps.post({ type: "config", options: res.configOptions });
      this.deps.post({ type: "notice", level: "info", text: "dsh-acp was restarted; the session carries on." });
    } catch (e) {
      this.sessionId = undefined;
      const why = e instanceof Error ? e.message : String(e);
      this.deps.post({ type: "notice", level: "error", text: `dsh-acp was restarted and the session could not be resumed (${why}); the next prompt starts a new one.` });
    }
    await this.refreshSessions();
  }

  /** Sends a prompt (prefixed by the note about rejected files, if any) and waits for the turn to end. */
  async prompt(text: string): Promise<string | undefined> {
    if (this.running || text.trim() === "") return undefined;
    this.running = true;
    try {
      if (!this.sessionId) await this.newSession();
      const sessionId = this.sessionId;
      if (!sessionId) return undefined;
      this.deps.review.startTurn();
      this.postReview();
      const blocks: ContentBlock[] = [];
      const note = this.deps.review.takeRejectionNote();
      if (note) blocks.push({ type: "text", text: note });
      blocks.push({ type: "text", text });
      this.deps.post({ type: "userPrompt", text });
      this.deps.post({ type: "turn", running: true });
      const agent = await this.deps.agent();
      const res = await agent.prompt(sessionId, blocks);
      this.deps.post({ type: "turn", running: false, stopReason: res.stopReason });
      await this.deps.results.record("turn", { stopReason: res.stopReason, changed: this.deps.review.files().map((f) => f.path) });
      return res.stopReason;
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (isAuthRequired(e)) void this.deps.authRequired?.();
      this.deps.post({ type: "turn", running: false, stopReason: "error" });
      this.deps.post({ type: "notice", level: "error", text: msg });
      await this.deps.results.record("error", { message: msg });
      return undefined;
    } finally {
      this.running = false;
    }
  }

  /** Cancels the running turn (session/cancel) and any open approval. */
  async stop(): Promise<void> {
    this.broker.cancelAll();
    if (this.sessionId && this.running) await (await this.deps.agent()).cancel(this.sessionId);
  }

  /** Opens the review list as a QuickPick and carries out the choice. */
  async reviewChanges(): Promise<void> {
    const choice = await pickReview(this.deps.review.files());
    if (!choice) return;
    if (choice.kind === "all") return choice.action === "accept" ? this.acceptAll() : this.rejectAll();
    return this.reviewAction(choice.action, choice.path);
  }

  /** Accepts every changed file. */
  async acceptAll(): Promise<void> {
    const paths = this.deps.review.files().map((f) => f.path);
    this.deps.review.acceptAll();
    this.postReview();
    await this.deps.results.record("review", { action: "acceptAll", paths });
  }

  /** Rejects every changed file (each restored). */
  async rejectAll(): Promise<void> {
    const paths = this.deps.review.files().map((f) => f.path);
    await this.deps.review.rejectAll();
    this.postReview();
    await this.deps.results.record("review", { action: "rejectAll", paths });
  }

  /** Lists the stored sessions of the workspace into the view. */
  async refreshSessions(): Promise<void> {
    try {
      const agent = await this.deps.agent();
      const res = await agent.listSessions(this.deps.cwd());
      this.deps.post({ type: "sessions", sessions: res.sessions, current: this.sessionId });
    } catch (e) {
      this.deps.post({ type: "notice", level: "error", text: e instanceof Error ? e.message : String(e) });
    }
  }

  // ClientHandlers

  /** Applies one session/update: the view first, then the editor. */
  async sessionUpdate(n: SessionNotification): Promise<void> {
    if (n.sessionId !== this.sessionId) {
      if (this.early && this.early.length < EARLY_LIMIT) this.early.push(n);
      return;
    }
    const u = n.update;
    this.deps.post({ type: "update", update: u });
    switch (u.sessionUpdate) {
      case "tool_call":
      case "tool_call_update": {
        const call = this.calls.apply(u);
        const before = this.deps.review.files().length;
        if (u.content != null) for (const d of call.diffs) this.deps.review.record(d);
        if (u.content != null || this.deps.review.files().length !== before) this.postReview();
        this.deps.terminals.apply(u, () => commandOf(call) ?? call.title);
        await this.deps.follower.follow(u.toolCallId, u.locations);
        return;
      }
      case "available_commands_update":
        this.deps.post({ type: "commands", commands: u.availableCommands });
        return;
      case "config_option_update":
        this.deps.post({ type: "config", options: u.configOptions });
        return;
      case "usage_update":
        this.deps.usage.update(u);
        return;
      default:
        return;
    }
  }

  /** Answers session/request_permission through the native prompt and the card. */
  requestPermission(req: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    return this.broker.ask(req, signal);
  }

  /** Answers fs/read_text_file. */
  readTextFile(req: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    return readTextFile(req);
  }

  /** Answers fs/write_text_file as an undoable WorkspaceEdit, saved. */
  async writeTextFile(req: WriteTextFileRequest): Promise<void> {
    this.deps.review.noteOriginal(req.path, (await currentText(req.path)) ?? null);
    return writeWholeFile(req.path, req.content);
  }

  /** Restores a rejected file: its original text, or deletes a file the turn created. */
  static async restore(filePath: string, original: string | null): Promise<void> {
    if (original === null) await deleteFile(filePath);
    else await writeWholeFile(filePath, original);
  }

  private switchTo(sessionId: string): void {
    this.sessionId = sessionId;
    this.calls.clear();
    this.deps.usage.reset();
    this.deps.post({ type: "reset", sessionId });
  }

  private async setConfig(configId: string, value: string): Promise<void> {
    if (!this.sessionId) return;
    const options = await (await this.deps.agent()).setConfigOption(this.sessionId, configId, value);
    this.deps.post({ type: "config", options });
  }

  private async reviewAction(action: "accept" | "reject" | "diff", filePath: string): Promise<void> {
    const change = this.deps.review.get(filePath);
    if (!change) return;
    if (action === "diff") return openDiff(this.deps.diffs, filePath, change.original);
    if (action === "accept") this.deps.review.accept(filePath);
    else await this.deps.review.reject(filePath);
    this.postReview();
    await this.deps.results.record("review", { action, paths: [filePath] });
  }

  private postReview(): void {
    this.deps.post({ type: "review", files: this.deps.review.files().map((f) => ({ path: f.path, created: f.original === null })) });
  }
}
