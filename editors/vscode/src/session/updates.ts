import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../chat/messages";
import type { Follower } from "../follow";
import type { ReviewList } from "../review/reviewList";
import type { UsageStatus } from "../status/usage";
import type { CommandTerminals } from "../terminal/terminals";
import { commandOf, type ToolCallStore } from "./toolCalls";

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
}

/**
 * Applies the current session's updates: each goes to the chat view
 * first, then to what it drives in the editor: a tool call to the call
 * store, the review list, its terminal and following; commands and config
 * options to the view's pickers; usage to the status bar.
 */
export class UpdateRouter {
  private readonly deps: UpdatesDeps;

  constructor(deps: UpdatesDeps) {
    this.deps = deps;
  }

  /** Applies one update; resolves once the editor has followed its locations. */
  async apply(u: SessionUpdate): Promise<void> {
    this.deps.post({ type: "update", update: u });
    switch (u.sessionUpdate) {
      case "tool_call":
      case "tool_call_update": {
        const call = this.deps.calls.apply(u);
        const before = this.deps.review.files().length;
        if (u.content != null) for (const d of call.diffs) this.deps.review.record(d);
        if (u.content != null || this.deps.review.files().length !== before) this.deps.showReview();
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
}
