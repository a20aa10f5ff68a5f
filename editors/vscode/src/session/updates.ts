import type { ToWebview } from "../chat/messages";
import type { AgentUpdate } from "../client/unstable";
import type { Follower } from "../follow";
import { showNotice } from "../notices/notify";
import type { ReviewList } from "../review/reviewList";
import type { UsageStatus } from "../status/usage";
import { terminalInfo, type CommandTerminals } from "../terminal/terminals";
import { childUpdate } from "./childCalls";
import { ReplayCosts } from "./replayCosts";
import { stoppedView } from "./stoppedCalls";
import { commandOf, type ToolCallState, type ToolCallStore } from "./toolCalls";

/** Where a session update goes besides the chat view. */
export interface UpdatesDeps {
  readonly post: (m: ToWebview) => void;
  readonly calls: ToolCallStore;
  readonly review: ReviewList;
  /** Posts the review list to the view. */
  readonly showReview: () => void;
  readonly terminals: CommandTerminals;
  readonly follower: Follower;
  readonly usage: UsageStatus;
  /** Whether a stored session is being replayed (its changes were reviewed when they were made). */
  readonly replaying: () => boolean;
  /** The conversation shown (its session id): the one whose turn made the changes reviewed. */
  readonly conversation?: () => string | undefined;
  /** Told the names of the slash commands the agent offers, whenever they change. */
  readonly commands?: (names: readonly string[]) => void;
}

/**
 * Whether a call's changes go to the review list (once, when it
 * completes: see ToolCallState.reviewed): those of an edit applied now, not one still awaiting approval (or refused, or failed),
 * not the files an /undo restored, and none replayed from a stored
 * session.
 */
export function reviewable(call: ToolCallState, replaying: boolean): boolean {
  if (replaying || call.status !== "completed" || call.diffs.length === 0) return false;
  const raw = call.rawInput;
  return !(raw !== null && typeof raw === "object" && "command" in raw && raw.command === "/undo");
}

/**
 * Applies the current session's updates: each goes to the chat view
 * first, then to what it drives in the editor: a tool call to the call
 * store, the review list (see reviewable), its terminal and following; commands and config
 * options to the view's pickers; usage to the status bar; a notice to a
 * VS Code notification. A child session's update (a subagent's) is shown
 * inside its parent's: its tool calls under their childCallId, as cards
 * of their own with their diffs under review and their terminals; its
 * usage is already in the parent's, its commands and options are not the
 * chat's. A replayed session's turns each show their cost at their end,
 * as they did live (ReplayCosts).
 */
export class UpdateRouter {
  private readonly deps: UpdatesDeps;
  /** The calls whose cards stream a command's output in a terminal (their tool_call announced one), until they end. */
  private readonly terminalCalls = new Set<string>();
  /** The cost lines of the turns of the session being replayed. */
  private readonly costs = new ReplayCosts();

  constructor(deps: UpdatesDeps) {
    this.deps = deps;
  }

  /** Applies one update (of child, a subagent session, if given); resolves once the editor has followed its locations. */
  async apply(update: AgentUpdate, child?: string): Promise<void> {
    const u = child === undefined ? update : childUpdate(child, update);
    const shown = this.shown(u);
    if (child === undefined && this.deps.replaying()) {
      const line = this.costs.update(u);
      if (line !== undefined) this.deps.post({ type: "turnCost", text: line });
    }
    this.deps.post(child === undefined ? { type: "update", update: shown } : { type: "update", update: shown, child });
    switch (u.sessionUpdate) {
      case "tool_call":
      case "tool_call_update": {
        const call = this.deps.calls.apply(u);
        if (!call.reviewed && reviewable(call, this.deps.replaying())) {
          call.reviewed = true;
          for (const d of call.diffs) this.deps.review.record(d, this.deps.conversation?.());
          this.deps.showReview();
        }
        // A replayed command ran long ago: its card shows its output and exit; no terminal opens.
        if (!this.deps.replaying()) this.deps.terminals.apply(u, () => commandOf(call) ?? call.title);
        await this.deps.follower.follow(u.toolCallId, u.locations);
        return;
      }
      default:
        if (child === undefined) this.session(u);
    }
  }

  /** The replay of a loaded session is over: its last turn's cost line shows, unless the load failed (complete false). */
  replayEnded(complete: boolean): void {
    const line = this.costs.end();
    if (complete && line !== undefined) this.deps.post({ type: "turnCost", text: line });
  }

  /**
   * An update as the chat view shows it: a call a cancel stopped reads
   * cancelled, its output once (stoppedView). The editor gets it as it
   * came.
   */
  private shown(u: AgentUpdate): AgentUpdate {
    if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") return u;
    if (terminalInfo(u._meta)) this.terminalCalls.add(u.toolCallId);
    const shown = stoppedView(u, this.terminalCalls.has(u.toolCallId));
    // The call's final update was the last to need it (the stopped mark comes on it alone); output after it shows as it comes.
    if (u.status === "completed" || u.status === "failed") this.terminalCalls.delete(u.toolCallId);
    return shown;
  }

  /** Another conversation is shown (or a new one): the calls of the one left are forgotten, since a replayed session's ids may repeat them. */
  forget(): void {
    this.terminalCalls.clear();
  }

  /** How many calls are known to stream into a terminal and have not ended. */
  get openTerminalCalls(): number {
    return this.terminalCalls.size;
  }

  // The session's own updates for the pickers, the status bar and the notifications.
  private session(u: AgentUpdate): void {
    switch (u.sessionUpdate) {
      case "available_commands_update":
        this.deps.post({ type: "commands", commands: u.availableCommands });
        this.deps.commands?.(u.availableCommands.map((c) => c.name));
        return;
      case "config_option_update":
        this.deps.post({ type: "config", options: u.configOptions });
        return;
      case "usage_update":
        this.deps.usage.update(u);
        return;
      case "notice":
        // A notice is a live event; should one come in a replay, the chat's note is enough.
        if (!this.deps.replaying()) showNotice(u);
        return;
      default:
        return;
    }
  }
}
