import type { SessionUpdate, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";

/** One file change shown by a diff card. */
export interface FileDiff {
  /** Absolute path. */
  readonly path: string;
  /** The text before (null: the file was created). */
  readonly oldText: string | null;
  /** The text after. */
  readonly newText: string;
}

/** What the extension knows about one tool call, merged from its updates. */
export interface ToolCallState {
  readonly toolCallId: string;
  title: string;
  kind: ToolKind | undefined;
  status: string;
  rawInput: unknown;
  locations: ToolCallLocation[];
  diffs: FileDiff[];
  /** Whether its changes went to the review list (they go once: a later update of the call does not bring back a file the user reviewed). */
  reviewed: boolean;
}

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

function diffsOf(content: readonly ToolCallContent[] | null | undefined): FileDiff[] {
  const out: FileDiff[] = [];
  for (const c of content ?? []) {
    if (c.type === "diff") out.push({ path: c.path, oldText: c.oldText ?? null, newText: c.newText });
  }
  return out;
}

/** The tool calls of a session, by id. */
export class ToolCallStore {
  private readonly calls = new Map<string, ToolCallState>();

  /** Merges a tool_call or tool_call_update and returns the call's state. */
  apply(u: ToolUpdate): ToolCallState {
    let s = this.calls.get(u.toolCallId);
    if (!s) {
      s = { toolCallId: u.toolCallId, title: "", kind: undefined, status: "pending", rawInput: undefined, locations: [], diffs: [], reviewed: false };
      this.calls.set(u.toolCallId, s);
    }
    if (u.title != null) s.title = u.title;
    if (u.kind != null) s.kind = u.kind;
    if (u.status != null) s.status = u.status;
    if (u.rawInput !== undefined && u.rawInput !== null) s.rawInput = u.rawInput;
    if (u.locations != null) s.locations = u.locations;
    if (u.content != null) s.diffs = diffsOf(u.content);
    return s;
  }

  /** The call with id, if seen. */
  get(toolCallId: string): ToolCallState | undefined {
    return this.calls.get(toolCallId);
  }

  /** Forgets every call (a new or loaded session). */
  clear(): void {
    this.calls.clear();
  }
}

/** The full command line of a bash call (from its raw input), if it is one. */
export function commandOf(call: ToolCallState | undefined): string | undefined {
  const raw = call?.rawInput;
  if (raw && typeof raw === "object" && "command" in raw) {
    const cmd = raw.command;
    if (typeof cmd === "string") return cmd;
  }
  return undefined;
}
