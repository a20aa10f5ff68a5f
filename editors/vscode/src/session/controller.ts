import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionConfigOption,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import type { AgentNotification } from "../client/unstable";
import { isAuthRequired, NEEDS_KEY, type SignInResult, type SignInWay } from "../auth/signIn";
import { linkTarget } from "../chat/links";
import type { FromWebview, ToWebview } from "../chat/messages";
import type { ClientHandlers } from "../client/handlers";
import { openChangeDiff, type DiffContentProvider } from "../diff/provider";
import { revealLocation, type Follower } from "../follow";
import { Elicitations } from "../elicitation/elicitations";
import { QuickInputPrompter } from "../elicitation/quickInput";
import type { FieldPrompter } from "../elicitation/walk";
import { errorMessage } from "../errors";
import { readTextFile } from "../fs/readText";
import type { PermissionBroker } from "../permission/broker";
import type { PlanDocuments } from "../plan/planDocuments";
import type { ReviewList } from "../review/reviewList";
import type { ReviewState } from "../review/reviewState";
import type { UsageStatus } from "../status/usage";
import type { CommandTerminals } from "../terminal/terminals";
import type { AgentPort } from "./agentPort";
import { chatApprovals } from "./approvals";
import { childRequest } from "./childCalls";
import { writeReviewed } from "./files";
import type { ResultsLog } from "./resultsLog";
import { TurnInput } from "../steering/turnInput";
import { ReviewActions } from "./reviewActions";
import { currentText } from "../fs/documents";
import { contextLabel, mentionContext, type EditorContext } from "./editorContext";
import { promptImages } from "./images";
import { insertAtCursor } from "./insertCode";
import { modelRefusingImages } from "./modelImages";
import { REWIND, restorePoint, rewindCount, undoCount, type RestorePoint } from "./restore";
import { mentionItems } from "./mentionItems";
import { mentions } from "./mentions";
import { History, type SessionTitles } from "./history";
import { Sessions, type OtherView, type SessionMemory } from "./sessions";
import { ToolCallStore } from "./toolCalls";
import { Turns } from "./turns";
import { UpdateRouter } from "./updates";

/** text's first line, cut at 60 characters (how a notice names a message). */
function shortText(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

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
  /** Where the last session shown is kept across reloads. */
  readonly memory?: SessionMemory;
  /** The titles the user gave conversations. */
  readonly titles?: SessionTitles;
  /** Told the current conversation's title whenever the sessions are listed (an editor tab is titled so). */
  readonly sessionsShown?: (title: string) => void;
  /** The other view showing a session (or reopening it after a reload), if any: opening that session reveals it instead. */
  readonly elsewhere?: (sessionId: string) => OtherView | undefined;
  /** Opens a new conversation in an editor tab (the view's "New tab"). */
  readonly openTab?: () => void;
  /** Called after the review list changed (the editor's inline review redraws). */
  readonly reviewChanged?: () => void;
  /** Offers the sign-in (the agent refused for want of an API key), as way says. */
  readonly authRequired?: (way: SignInWay) => Promise<SignInResult>;
  /** Whether the chat's view is in sight (absent: taken as not). */
  readonly visible?: () => boolean;
  /** Whether VS Code's secret storage holds the API key (the welcome tells it). */
  readonly keyStored?: () => Promise<boolean>;
  /** Where a plan review's Markdown plan opens (absent: it is asked as any other question). */
  readonly plans?: PlanDocuments;
  /** Asks an elicitation's fields (default: VS Code's QuickPick and InputBox). */
  readonly prompter?: FieldPrompter;
}

/**
 * One chat: it routes what the chat view asks and what the agent sends
 * to the parts that handle it: the current session (Sessions), its turns
 * (Turns), its updates (UpdateRouter), its approvals (PermissionBroker),
 * the review of changed files (ReviewActions) and the agent's file
 * access. It is also the client's ClientHandlers. The subagent sessions
 * its session starts are shown inside it, each with its own Stop.
 */
export class ChatController implements ClientHandlers {
  private readonly deps: ControllerDeps;
  private readonly calls = new ToolCallStore();
  private readonly approvals: PermissionBroker;
  private readonly elicitations: Elicitations;
  private readonly reviews: ReviewActions;
  private readonly sessions: Sessions;
  private readonly history: History;
  private readonly turns: Turns;
  private readonly input: TurnInput;
  private readonly updates: UpdateRouter;
  // What the active editor offers as the next prompt's context.
  private context: EditorContext | undefined;
  // Closed while the agent restarts, until its session is picked up again.
  private gate: Promise<void> = Promise.resolve();
  private openGate: () => void = () => undefined;
  // The session's config options as last sent to the view.
  private configOptions: readonly SessionConfigOption[] | undefined;
  // Whether the agent offers /rewind (its last available_commands_update said so).
  private rewindOffered = false;

  constructor(deps: ControllerDeps) {
    this.deps = deps;
    const { agent, results, review } = deps;
    // Everything the chat posts goes to the view; the session's config options are also kept (see modelRefusingImages).
    const post = (m: ToWebview): void => {
      if (m.type === "config") this.configOptions = m.options;
      deps.post(m);
    };
    this.approvals = chatApprovals({ post, results, calls: this.calls, diffs: deps.diffs, plans: deps.plans });
    this.elicitations = new Elicitations({ post, prompter: deps.prompter ?? new QuickInputPrompter() });
    this.reviews = new ReviewActions({
      review,
      post,
      results,
      diffs: deps.diffs,
      changed: deps.reviewChanged,
      current: () => this.sessions.current,
      titleOf: (id) => this.sessions.titleOf(id),
    });
    this.sessions = new Sessions({
      agent,
      post,
      cwd: deps.cwd,
      forget: () => {
        this.calls.clear();
        this.updates.forget();
        deps.usage.reset();
        deps.terminals.release();
        // The changes still under review stay listed, those of the conversation left under its title.
        this.reviews.show();
      },
      startReview: () => {
        this.reviews.startTurn();
      },
      replay: (n) => this.sessionUpdate(n),
      replayed: (complete) => {
        this.updates.replayEnded(complete);
      },
      memory: deps.memory,
      titles: deps.titles,
      shown: deps.sessionsShown,
      elsewhere: deps.elsewhere,
    });
    this.history = new History({
      agent,
      cwd: deps.cwd,
      titles: deps.titles,
      current: () => this.sessions.current,
      shownElsewhere: (id) => deps.elsewhere?.(id) !== undefined,
      open: (id) => this.sessions.open(id),
      forgetCurrent: () => {
        this.sessions.forgetCurrent();
      },
      changed: async () => {
        await this.sessions.refresh();
      },
    });
    this.turns = new Turns({
      agent,
      post,
      results,
      review,
      sessions: this.sessions,
      startReview: () => {
        this.reviews.startTurn();
      },
      cancelApprovals: () => {
        this.approvals.cancelAll();
        this.elicitations.cancelAll();
      },
      cwd: deps.cwd,
      ready: () => this.gate,
      cost: () => deps.usage.cost,
      priced: () => deps.usage.priced,
      spent: (c) => {
        deps.usage.noteRequest(c);
      },
      ended: () => {
        deps.terminals.stopAll();
        this.input.turnEnded();
      },
      authRequired: () => this.keyNeeded(),
      modelRefusingImages: () => modelRefusingImages(this.configOptions),
    });
    this.input = new TurnInput({ turns: this.turns, agent, post, session: () => this.sessions.current });
    this.updates = new UpdateRouter({
      post,
      calls: this.calls,
      review,
      showReview: () => {
        this.reviews.show();
      },
      terminals: deps.terminals,
      follower: deps.follower,
      usage: deps.usage,
      replaying: () => this.sessions.replaying,
      conversation: () => this.sessions.current,
      commands: (names) => {
        this.rewindOffered = names.includes(REWIND);
      },
    });
  }

  /** The current session id, if one was started. */
  get currentSession(): string | undefined {
    return this.sessions.current;
  }

  /** Whether the chat shows sessionId: its session, or a subagent session of it. */
  shows(sessionId: string): boolean {
    return this.sessions.shows(sessionId);
  }

  /** Whether a prompt is running. */
  get isRunning(): boolean {
    return this.turns.isRunning;
  }

  /** Handles a message from the chat view. */
  async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case "ready":
        this.deps.post({ type: "workspace", root: this.deps.cwd() });
        void this.tellKey();
        return this.sessions.reopen();
      case "restore":
        await this.restoreTo(restorePoint(m));
        return;
      case "prompt":
        // Edit and resend: the last prompt's turn is undone first; when that cannot be, the edited text is shown, not lost.
        if (m.restore !== undefined && !(await this.restoreTo(restorePoint(m.restore)))) {
          this.deps.post({ type: "notice", level: "error", text: `Your edited message was not sent, as the last turn could not be undone first: ${m.text}` });
          return;
        }
        // The context is the one the extension offered, never a path the view names;
        // mentions are the workspace's files the text names with @. During a
        // turn it steers the turn, or waits for it to end (queue).
        await this.input.send(m.text, [...(m.withContext === true && this.context ? [this.context] : []), ...(await this.mentions(m.text))], m.queue === true ? "queue" : "steer", promptImages(m.images));
        return;
      case "unqueue":
        this.input.unqueue(m.id);
        return;
      case "mention":
        this.deps.post({ type: "mentions", query: m.query, items: await mentionItems(this.deps.cwd(), m.query, this.context) });
        return;
      case "stop":
        return this.stop();
      case "stopSubagent":
        return this.stopSubagent(m.sessionId);
      case "newSession":
        return this.newSession();
      case "signIn":
        return this.signIn();
      case "history":
        return this.history.pick();
      case "newTab":
        this.deps.openTab?.();
        return;
      case "loadSession":
        return this.sessions.open(m.sessionId);
      case "setConfig":
        return this.sessions.setConfig(m.configId, m.value);
      case "permission":
        this.approvals.answerInline(m.requestId, m.optionId);
        return;
      case "openPath":
        return revealLocation(m.path, m.line, false);
      case "openDiff": {
        const call = this.calls.get(m.toolCallId);
        const hunks = call?.diffs.filter((x) => x.path === m.path) ?? [];
        // A completed call's change is on disk; any other's is still proposed.
        if (call && hunks.length > 0) await openChangeDiff(this.deps.diffs, m.path, hunks, call.status === "completed" ? "after" : "before");
        return;
      }
      case "review":
        return this.reviews.act(m.action, m.path);
      case "reviewAll":
        if (m.action === "view") return this.reviews.viewAll();
        return m.action === "accept" ? this.reviews.acceptAll() : this.reviews.rejectAll();
      case "openLink":
        return this.openLink(m.href);
      case "copy":
        await vscode.env.clipboard.writeText(m.text);
        return;
      case "insert":
        // Read defensively: the view's message is checked by its type tag alone.
        if (typeof m.text === "string" && m.text !== "") await insertAtCursor(m.text);
        return;
    }
  }

  /**
   * Restores the conversation to before a user message: the view drops
   * it and everything after, and the agent goes back turn by turn, each
   * step shown as it runs. With dsh-acp's /rewind (one per model turn
   * since, see rewindCount) the workspace and the agent's conversation
   * both go back, so the agent forgets the turns and a reload does not
   * show them; otherwise through /undo (see undoCount), which puts the
   * files back while the agent keeps the conversation, told which files
   * were reverted. Not while a turn runs; false when it did not get
   * through.
   */
  async restoreTo(point: RestorePoint | undefined): Promise<boolean> {
    if (!point || this.turns.isRunning) return false;
    const command = this.rewindOffered ? `/${REWIND}` : "/undo";
    const n = this.rewindOffered ? rewindCount(point.texts) : undoCount(point.texts);
    this.deps.post({ type: "truncate", index: point.index });
    const turns = `${n} ${n === 1 ? "turn" : "turns"}`;
    const what = n === 0 ? "no turn since to take back" : this.rewindOffered ? `taking back ${turns} with ${command} (their changes, and the agent forgets them)` : `undoing ${turns} with ${command}`;
    this.deps.post({ type: "notice", level: "info", text: `Restoring to before “${shortText(point.texts[0] ?? "")}”: ${what}.` });
    for (let i = 0; i < n; i++) {
      // The restore's notice says what happens: no bubble of the command, no cost line; the agent's replies show.
      if ((await this.turns.prompt(command, [], [], { quiet: true })) !== "end_turn") return false;
    }
    await this.deps.results.record("restore", { undone: n, command });
    return true;
  }

  // A link in an answer: web addresses open outside, the workspace's files in the editor.
  private async openLink(href: string): Promise<void> {
    const target = linkTarget(href, this.deps.cwd());
    if (target?.kind === "external") await vscode.env.openExternal(vscode.Uri.parse(target.uri));
    else if (target?.kind === "file") await revealLocation(target.path, target.line, false);
  }

  // The files the text mentions (@path, @path#L10-20) that exist, as contexts.
  private async mentions(text: string): Promise<EditorContext[]> {
    const out: EditorContext[] = [];
    for (const m of mentions(text, this.deps.cwd())) {
      const context = mentionContext(m, await currentText(m.path));
      if (context) out.push(context);
    }
    return out;
  }

  /** Offers the active editor's file and selection as context (undefined: none); the view shows it, removable. */
  offerContext(context: EditorContext | undefined): void {
    this.context = context;
    this.deps.post({ type: "editorContext", label: context ? contextLabel(context, this.deps.cwd()) : undefined });
  }

  /** Starts a fresh session (the view is cleared); without an API key, offers the sign-in. */
  async newSession(): Promise<void> {
    try {
      await this.sessions.newSession();
    } catch (e) {
      if (!isAuthRequired(e)) throw e;
      this.deps.post({ type: "notice", level: "error", text: NEEDS_KEY, action: "signIn" });
      await this.keyNeeded();
    }
  }

  /**
   * The agent refused for want of an API key (the view was told, with its
   * Set API key): when the view is in sight that suffices; out of sight, a
   * notification offers the sign-in, so the user learns the key is needed.
   */
  private async keyNeeded(): Promise<void> {
    if (this.deps.visible?.() === true) return this.tellKey();
    return this.signIn("notify");
  }

  /**
   * Offers the sign-in, as way says (default: the user asked for it in the
   * view, so only which way is asked). A key set with "Set API Key" restarts the agent
   * (reattach then sends a prompt kept for want of it); a sign-in in the
   * agent's terminal does not, so the kept prompt is sent here.
   */
  async signIn(way: SignInWay = "choose"): Promise<void> {
    const how = await this.deps.authRequired?.(way);
    await this.tellKey();
    if (how === "terminal") await this.turns.sendHeld();
  }

  /** Tells the view whether the API key is stored. */
  async tellKey(): Promise<void> {
    if (this.deps.keyStored) this.deps.post({ type: "apiKey", stored: await this.deps.keyStored() });
  }

  /** Shows an info or error line in the view. */
  notice(level: "info" | "error", text: string): void {
    this.deps.post({ type: "notice", level, text });
  }

  /** Shows the conversations (search, open, rename, delete). */
  conversations(): Promise<void> {
    return this.history.pick();
  }

  /** Loads a stored session: the agent replays it into the view. */
  loadSession(sessionId: string): Promise<void> {
    return this.sessions.loadSession(sessionId);
  }

  /** Opens a stored session the user chose, unless another view shows it (that view comes to the front: see Sessions.open). */
  openSession(sessionId: string): Promise<void> {
    return this.sessions.open(sessionId);
  }

  /** Leaves the conversation shown (another view took it): the view is cleared; the next prompt starts a new one. */
  leaveSession(): void {
    if (this.sessions.current !== undefined) this.sessions.forgetCurrent();
  }

  /**
   * The agent is about to restart (the key or a setting changed): prompts
   * wait until restarted() has picked the session up again.
   */
  restarting(): void {
    this.openGate();
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  /** The agent restarted (ok) or failed to start again; see reattach. */
  async restarted(ok: boolean): Promise<void> {
    await this.reattach(ok);
  }

  /**
   * Picks the current session up again in a restarted agent
   * (session/resume; when that fails, the next prompt starts a new one),
   * lets prompts through again, then sends a prompt kept for want of an
   * API key.
   */
  async reattach(ok = true): Promise<void> {
    try {
      if (ok) await this.sessions.reattach();
    } catch (e) {
      this.deps.post({ type: "notice", level: "error", text: errorMessage(e) });
    } finally {
      this.openGate();
    }
    if (ok) await this.turns.sendHeld();
  }

  /** Lists the stored sessions of the workspace into the view. */
  async refreshSessions(): Promise<void> {
    await this.sessions.refresh();
  }

  /** Sends a prompt (prefixed by the note about rejected files, if any; with the contexts given) and waits for the turn to end. */
  prompt(text: string, contexts: readonly EditorContext[] = []): Promise<string | undefined> {
    return this.turns.prompt(text, contexts);
  }

  /** Cancels the running turn (session/cancel) and any open approval, and drops the queued prompts. */
  stop(): Promise<void> {
    this.input.stopped();
    return this.turns.stop();
  }

  /**
   * Stops one subagent of the chat's session: session/cancel for it
   * alone, then its open questions answered cancelled (as ACP asks, after
   * the cancel: a cancelled answer on its own would stop the whole turn);
   * the parent's turn goes on.
   */
  async stopSubagent(sessionId: string): Promise<void> {
    if (!this.sessions.isChild(sessionId)) return;
    await (await this.deps.agent()).cancel(sessionId);
    this.approvals.cancelSession(sessionId);
  }

  /** Opens the review list as a QuickPick and carries out the choice. */
  reviewChanges(): Promise<void> {
    return this.reviews.pick();
  }

  /** The hunks of path's change under review and the file's text now (undefined: not under review). */
  reviewHunks(filePath: string): ReturnType<ReviewActions["hunks"]> {
    return this.reviews.hunks(filePath);
  }

  /** Brings the review's counts and inline review up to date after the user edited a file under review. */
  followReviewEdits(): Promise<void> {
    return this.reviews.followEdits();
  }

  /** Takes in the review an earlier window kept (undefined: none) and shows it; from then on the review is kept. */
  loadReview(kept: ReviewState | undefined): Promise<void> {
    return this.reviews.load(kept);
  }

  /** Whether path has a change under review. */
  underReview(filePath: string): boolean {
    return this.deps.review.get(filePath) !== undefined;
  }

  /** Keeps hunk index of path's change. */
  keepHunk(filePath: string, index: number): Promise<void> {
    return this.reviews.keepHunk(filePath, index);
  }

  /** Undoes hunk index of path's change (the agent is told at the next prompt). */
  undoHunk(filePath: string, index: number): Promise<void> {
    return this.reviews.undoHunk(filePath, index);
  }

  /** Accepts or rejects one changed file. */
  reviewFile(action: "accept" | "reject", filePath: string): Promise<void> {
    return this.reviews.act(action, filePath);
  }

  /** Accepts every changed file. */
  acceptAll(): Promise<void> {
    return this.reviews.acceptAll();
  }

  /** Rejects every changed file (each restored). */
  rejectAll(): Promise<void> {
    return this.reviews.rejectAll();
  }

  // ClientHandlers

  /** Applies one session/update of the current session or one of its subagents': the view first, then the editor. */
  async sessionUpdate(n: AgentNotification): Promise<void> {
    if (!this.sessions.admit(n)) return;
    await this.updates.apply(n.update, n.sessionId === this.sessions.current ? undefined : n.sessionId);
  }

  /** Answers session/request_permission through the native prompt and the card (a subagent's on its call's card in its block). */
  requestPermission(req: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    return this.approvals.ask(this.sessions.isChild(req.sessionId) ? childRequest(req) : req, signal);
  }

  /** Answers elicitation/create: the form's fields asked one by one. */
  createElicitation(req: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    return this.elicitations.answer(req, signal);
  }

  /** Answers fs/read_text_file. */
  readTextFile(req: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    return readTextFile(req);
  }

  /** Answers fs/write_text_file as an undoable WorkspaceEdit, saved. */
  writeTextFile(req: WriteTextFileRequest): Promise<void> {
    return writeReviewed(this.deps.review, req);
  }
}
