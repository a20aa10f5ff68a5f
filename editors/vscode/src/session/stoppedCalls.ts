import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { STOPPED_META } from "../chat/callMeta";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

/** What a stopped command's card says when its output is already in its terminal. */
export const COMMAND_STOPPED = "Stopped: the command was cancelled.";

/**
 * Whether dsh-acp marks the update's call as one the turn's cancel
 * stopped, while it ran or before it started: `_meta: {"dsh-acp":
 * {"stopped": true}}` on its final update (bridge/result.go markStopped),
 * whose status is then failed.
 */
export function agentStopped(meta: Readonly<Record<string, unknown>> | null | undefined): boolean {
  const own: unknown = meta?.["dsh-acp"];
  return own !== null && typeof own === "object" && "stopped" in own && own.stopped === true;
}

/**
 * The update as the chat view shows it when a cancel stopped its call
 * (agentStopped): it gets STOPPED_META (the card reads "cancelled"), and,
 * when the card streams the command's output in a terminal (hasTerminal),
 * one short line instead of the error that repeats that output. Any other
 * update is returned as it is.
 */
export function stoppedView(u: ToolUpdate, hasTerminal: boolean): ToolUpdate {
  if (!agentStopped(u._meta)) return u;
  const shown: ToolUpdate = { ...u, _meta: { ...u._meta, [STOPPED_META]: true } };
  return hasTerminal ? { ...shown, content: [{ type: "content", content: { type: "text", text: COMMAND_STOPPED } }] } : shown;
}
