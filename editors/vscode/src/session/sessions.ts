import type { ToWebview } from "../chat/messages";
import type { AgentNotification } from "../client/unstable";
import { isAuthRequired, REOPENS_WITH_KEY } from "../auth/signIn";
import { errorMessage } from "../errors";
import type { AgentPort, SessionOptions } from "./agentPort";
import { EarlyUpdates } from "./earlyUpdates";
import { retitled, type SessionTitles } from "./history";

/** What Sessions drives. */
export interface SessionsDeps {
  readonly agent: () => Promise<AgentPort>;
  readonly post: (m: ToWebview) => void;
  /** The directory sessions run in. */
  readonly cwd: () => string;
  /** Forgets what the chat knew of the previous session (its tool calls, its usage). */
  readonly forget: () => void;
  /** Shows the review list anew for the loaded session (a loaded session's replayed changes are not reviewed; unreviewed ones stay listed). */
  readonly startReview: () => void;
  /** Told when a loaded session's replay is over: complete, or cut short by the load's failure. */
  readonly replayed?: (complete: boolean) => void;
  /** Applies an update of the current session (the new session's early ones). */
  readonly replay: (n: AgentNotification) => Promise<void>;
  /** Where the last session shown is kept across reloads of the window. */
  readonly memory?: SessionMemory;
  /** The titles the user gave sessions (shown in place of the agent's). */
  readonly titles?: SessionTitles | undefined;
  /** Told the current session's title (or "new conversation") each time the sessions are listed. */
  readonly shown?: ((title: string) => void) | undefined;
  /** The other view showing sessionId, or reopening it after a reload (a restored editor tab), if any. */
  readonly elsewhere?: ((sessionId: string) => OtherView | undefined) | undefined;
}

/** Another view of the window's conversations (the sidebar's, or an editor tab). */
export interface OtherView {
  /** Brings the view to the front. */
  reveal(): void;
}

/** The id of the session last shown in this workspace, kept across reloads (VS Code's workspaceState). */
export interface SessionMemory {
  last(): string | undefined;
  remember(sessionId: string): void;
}

/**
 * Which session the chat shows (and the child sessions it announced,
 * shown inside it), and the calls that open, reopen, list and configure
 * sessions. Updates of any other session are not shown, except those of
 * a session being created (EarlyUpdates).
 */
export class Sessions {
  private readonly deps: SessionsDeps;
  private readonly early = new EarlyUpdates();
  // The subagent sessions the current session (or one of them) announced.
  private readonly children = new Set<string>();
  private sessionId: string | undefined;
  // Whether the agent has stored the current session: it stores a new one
  // at its first prompt, so one never prompted cannot be resumed.
  private stored = false;
  private loading = false;
  // The session a quiet reopen could not load for want of the API key: it reopens once the key is set (reattach).
  private awaitingKey: string | undefined;
  // The sessions' titles as last listed.
  private readonly titles = new Map<string, string>();

  constructor(deps: SessionsDeps) {
    this.deps = deps;
  }

  /** The current session id, if one was started. */
  get current(): string | undefined {
    return this.sessionId;
  }

  /** The title of sessionId as last listed, if it had one. */
  titleOf(sessionId: string): string | undefined {
    return this.titles.get(sessionId);
  }

  /** Whether a stored session is being loaded (the agent replays it). */
  get replaying(): boolean {
    return this.loading;
  }

  /** Notes that the current session has had a prompt (the agent stores it then). */
  notePrompted(): void {
    this.stored = true;
  }

  /** Whether sessionId is a subagent session of the current one. */
  isChild(sessionId: string): boolean {
    return this.children.has(sessionId);
  }

  /** Whether the chat shows sessionId: the current session, or one of its children. */
  shows(sessionId: string): boolean {
    return sessionId === this.sessionId || this.children.has(sessionId);
  }

  /**
   * Whether n belongs to the current session or one of its children (a
   * child's announcement makes it one). An update of another session is
   * dropped, or kept while session/new is awaited.
   */
  admit(n: AgentNotification): boolean {
    if (!this.shows(n.sessionId)) {
      this.early.keep(n);
      return false;
    }
    if (n.update.sessionUpdate === "subagent_update") this.children.add(n.update.sessionId);
    return true;
  }

  /** Starts a fresh session (the view is cleared). */
  async newSession(): Promise<void> {
    // The user starts afresh: the conversation waiting for the key no longer reopens.
    this.awaitingKey = undefined;
    const agent = await this.deps.agent();
    this.early.start();
    let res: Awaited<ReturnType<AgentPort["newSession"]>>;
    try {
      res = await agent.newSession(this.deps.cwd());
    } catch (e) {
      this.early.stop();
      throw e;
    }
    const early = this.early.stop(res.sessionId);
    this.switchTo(res.sessionId);
    this.postConfig(res);
    for (const n of early) await this.deps.replay(n);
    await this.refresh();
  }

  /**
   * Loads a stored session: the agent replays it into the view, and the
   * list shows it as the current one (opened from History, the dropdown
   * still showed the one before).
   */
  async loadSession(sessionId: string): Promise<void> {
    const agent = await this.deps.agent();
    this.switchTo(sessionId);
    this.stored = true;
    this.loading = true;
    let complete = false;
    try {
      this.postConfig(await agent.loadSession(sessionId, this.deps.cwd()));
      complete = true;
    } finally {
      this.loading = false;
      this.deps.replayed?.(complete);
    }
    this.deps.startReview();
    await this.refresh();
  }

  /**
   * Opens a stored session the user chose (History, the view's list):
   * when another view shows it already, that view comes to the front
   * instead, so that no two views drive one session (two prompts racing,
   * two reviews); else it loads here.
   */
  async open(sessionId: string): Promise<void> {
    const other = sessionId === this.sessionId ? undefined : this.deps.elsewhere?.(sessionId);
    if (other) {
      other.reveal();
      return;
    }
    await this.loadSession(sessionId);
  }

  /**
   * Picks the current session up again in a restarted agent
   * (session/resume, without a replay: the view keeps what it shows). A
   * session never prompted is not stored yet: a fresh one takes its place
   * quietly, as nothing was said in it. When resuming fails, the next
   * prompt starts a new session.
   */
  async reattach(): Promise<void> {
    const sessionId = this.sessionId;
    if (!sessionId) {
      const waiting = this.awaitingKey;
      this.awaitingKey = undefined;
      if (waiting !== undefined && !this.deps.elsewhere?.(waiting)) return this.reopenQuietly(waiting);
      await this.refresh();
      return;
    }
    if (!this.stored) return this.newSession();
    try {
      this.postConfig(await (await this.deps.agent()).resumeSession(sessionId, this.deps.cwd()));
      this.deps.post({ type: "notice", level: "info", text: "dsh restarted; this conversation carries on." });
    } catch (e) {
      this.sessionId = undefined;
      this.stored = false;
      this.deps.post({
        type: "notice",
        level: "error",
        text: `dsh restarted and could not pick this conversation up again (${errorMessage(e)}); the next message starts a new one.`,
      });
    }
    await this.refresh();
  }

  /** Lists the stored sessions of the workspace into the view; returns their ids (none when listing failed). */
  async refresh(): Promise<string[]> {
    try {
      const agent = await this.deps.agent();
      const res = await agent.listSessions(this.deps.cwd());
      const sessions = retitled(res.sessions, this.deps.titles);
      for (const s of sessions) if (s.title?.trim()) this.titles.set(s.sessionId, s.title.trim());
      this.deps.post({ type: "sessions", sessions, current: this.sessionId });
      const title = sessions.find((s) => s.sessionId === this.sessionId)?.title?.trim() ?? "";
      this.deps.shown?.(title === "" ? "new conversation" : title);
      return res.sessions.map((s) => s.sessionId);
    } catch (e) {
      this.deps.post({ type: "notice", level: "error", text: errorMessage(e) });
      return [];
    }
  }

  /**
   * Lists the sessions and, when none is shown yet (the window was just
   * opened or reloaded), loads the one last shown, if the agent still
   * has it and no other view shows it (a restored editor tab keeps its
   * session; this view then starts a new one at its first prompt).
   */
  async reopen(): Promise<void> {
    const listed = await this.refresh();
    const last = this.deps.memory?.last();
    if (this.sessionId !== undefined || last === undefined || !listed.includes(last)) return;
    if (this.deps.elsewhere?.(last)) return;
    await this.reopenQuietly(last);
  }

  /**
   * Loads sessionId, which the user did not just ask for (the one last
   * shown, after a reload). Nothing is lost when it fails: the list still
   * offers it. Refused for want of the API key, the view says it reopens
   * once the key is set (with Set API key), and reattach, after the
   * key's restart, reopens it.
   */
  private async reopenQuietly(sessionId: string): Promise<void> {
    try {
      await this.loadSession(sessionId);
    } catch (e) {
      this.sessionId = undefined;
      this.deps.post({ type: "reset", sessionId: undefined });
      if (isAuthRequired(e)) {
        this.awaitingKey = sessionId;
        this.deps.post({ type: "notice", level: "info", text: REOPENS_WITH_KEY, action: "signIn" });
      } else {
        this.deps.post({ type: "notice", level: "error", text: `The last conversation could not be reopened: ${errorMessage(e)}` });
      }
      await this.refresh();
    }
  }

  /** Leaves the current session (it was deleted, or another view took it): the view is cleared, and the next prompt starts a new one. */
  forgetCurrent(): void {
    this.sessionId = undefined;
    this.stored = false;
    this.children.clear();
    this.deps.forget();
    this.deps.post({ type: "reset", sessionId: undefined });
  }

  /** Sets one of the current session's config options; the view gets the options after the change. */
  async setConfig(configId: string, value: string): Promise<void> {
    if (!this.sessionId) return;
    const options = await (await this.deps.agent()).setConfigOption(this.sessionId, configId, value);
    this.deps.post({ type: "config", options });
  }

  private switchTo(sessionId: string): void {
    this.sessionId = sessionId;
    this.stored = false;
    this.children.clear();
    this.deps.memory?.remember(sessionId);
    this.deps.forget();
    this.deps.post({ type: "reset", sessionId });
  }

  private postConfig(res: SessionOptions): void {
    if (res.configOptions) this.deps.post({ type: "config", options: res.configOptions });
  }
}
