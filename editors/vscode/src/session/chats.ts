import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import type { AgentNotification } from "../client/unstable";
import type { RestartHooks } from "../agentHost";
import type { ClientHandlers } from "../client/handlers";
import type { ChatController } from "./controller";

/** What Chats tells a chat as it comes to the front or leaves it (its usage shows in the status bar). */
export interface ChatFront {
  front(on: boolean): void;
}

/** Where a chat shows: how to bring its view to the front, and the session a restored editor tab reopens. */
export interface ChatPlace {
  reveal(): void;
  /** The session the view was showing before the window reloaded, which it reopens. */
  readonly restoring?: string | undefined;
}

interface Entry {
  readonly chat: ChatController;
  readonly front: ChatFront;
  readonly place: ChatPlace;
}

const NOWHERE: ChatPlace = { reveal: () => undefined };

/**
 * The conversations open at once (the Agent view's, and one per editor
 * tab), all on the window's one dsh-acp process. It is the client's
 * handlers: what the agent sends for a session goes to the chat showing
 * it — a subagent session's to the chat showing its parent — (an update
 * of a session no chat shows yet goes to each, for the one creating it),
 * a file write to that chat's review. Commands with no
 * conversation of their own act on the active chat, the one the user
 * last worked in.
 */
export class Chats implements ClientHandlers, RestartHooks {
  private readonly entries: Entry[] = [];
  private active_: Entry | undefined;

  /** Adds a chat (it becomes the active one). */
  add(chat: ChatController, front: ChatFront, place: ChatPlace = NOWHERE): void {
    const entry = { chat, front, place };
    this.entries.push(entry);
    this.activate(chat);
  }

  /**
   * The chat other than from that shows sessionId as its conversation, or
   * is reopening it after a reload (a restored tab, before its session
   * has loaded): revealing it brings its view to the front and makes it
   * the active chat. Undefined when no other chat has it.
   */
  elsewhere(from: ChatController, sessionId: string): { reveal(): void } | undefined {
    const entry = this.entries.find((e) => e.chat !== from && (e.chat.currentSession === sessionId || (e.chat.currentSession === undefined && e.place.restoring === sessionId)));
    if (!entry) return undefined;
    return {
      reveal: () => {
        this.activate(entry.chat);
        entry.place.reveal();
      },
    };
  }

  /**
   * A restored tab reopens sessionId: any other chat that reopened it
   * first, quietly, after the same reload (the sidebar) leaves it and
   * starts afresh, so that one view drives the session.
   */
  restored(tab: ChatController, sessionId: string): void {
    for (const e of this.entries) if (e.chat !== tab && e.chat.currentSession === sessionId) e.chat.leaveSession();
  }

  /** Removes a chat (its tab closed); the first one left becomes active. */
  remove(chat: ChatController): void {
    const i = this.entries.findIndex((e) => e.chat === chat);
    if (i < 0) return;
    const [gone] = this.entries.splice(i, 1);
    gone?.front.front(false);
    if (this.active_ === gone) {
      this.active_ = undefined;
      const first = this.entries[0];
      if (first) this.activate(first.chat);
    }
  }

  /** Makes chat the active one (the user worked in it). */
  activate(chat: ChatController): void {
    const entry = this.entries.find((e) => e.chat === chat);
    if (!entry || entry === this.active_) return;
    this.active_?.front.front(false);
    this.active_ = entry;
    entry.front.front(true);
  }

  /** The chat the user last worked in (undefined: none open). */
  get active(): ChatController | undefined {
    return this.active_?.chat;
  }

  /** Every open chat. */
  all(): ChatController[] {
    return this.entries.map((e) => e.chat);
  }

  /** The chat showing sessionId (its session, or a subagent session of it), if any. */
  showing(sessionId: string): ChatController | undefined {
    return this.entries.find((e) => e.chat.shows(sessionId))?.chat;
  }

  /** The chat that has path under review (its hunks and Keep / Undo are that chat's). */
  reviewing(filePath: string): ChatController | undefined {
    return this.entries.find((e) => e.chat.underReview(filePath))?.chat;
  }

  // ClientHandlers

  /** Applies an update in the chat showing its session, else offers it to each (the one creating it keeps it). */
  async sessionUpdate(n: AgentNotification): Promise<void> {
    const owner = this.showing(n.sessionId);
    if (owner) return owner.sessionUpdate(n);
    for (const c of this.all()) await c.sessionUpdate(n);
  }

  /** Asks in the chat showing the session (else the active one). */
  requestPermission(req: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const chat = this.showing(req.sessionId) ?? this.active;
    if (!chat) return Promise.resolve({ outcome: { outcome: "cancelled" } });
    return chat.requestPermission(req, signal);
  }

  /** Asks the form in the chat showing its session (else the active one); with no chat open, it is declined. */
  createElicitation(req: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const sessionId = sessionOf(req);
    const chat = (sessionId === undefined ? undefined : this.showing(sessionId)) ?? this.active;
    if (!chat) return Promise.resolve({ action: "decline" });
    return chat.createElicitation(req, signal);
  }

  /** Reads a file (the same for every chat). */
  readTextFile(req: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const chat = this.showing(req.sessionId) ?? this.active;
    if (!chat) return Promise.reject(new Error("no conversation is open"));
    return chat.readTextFile(req);
  }

  /** Writes a file into the review of the chat showing the session (else the active one's). */
  writeTextFile(req: WriteTextFileRequest): Promise<void> {
    const chat = this.showing(req.sessionId) ?? this.active;
    if (!chat) return Promise.reject(new Error("no conversation is open"));
    return chat.writeTextFile(req);
  }

  // RestartHooks

  /** Every chat waits while the agent restarts. */
  restarting(): void {
    for (const c of this.all()) c.restarting();
  }

  /** Every chat picks its session up again. */
  async restarted(ok: boolean): Promise<void> {
    await Promise.all(this.all().map((c) => c.restarted(ok)));
  }
}

/** The session a form is scoped to, if it names one. */
function sessionOf(req: CreateElicitationRequest): string | undefined {
  const id: unknown = (req as { sessionId?: unknown }).sessionId;
  return typeof id === "string" ? id : undefined;
}
