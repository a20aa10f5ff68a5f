import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { AgentUpdate } from "../client/unstable";

/**
 * The id a child session's tool call has in its parent's chat: the
 * child's session id, then the call's own id (a child's model picks ids
 * that may be its parent's too). The chat's call store, its cards and
 * its approvals all know the call by it.
 */
export function childCallId(child: string, toolCallId: string): string {
  return `${child}/${toolCallId}`;
}

/** u as the parent's chat shows it: a tool call of child's under its childCallId; anything else as it is. */
export function childUpdate(child: string, u: AgentUpdate): AgentUpdate {
  if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") return u;
  return { ...u, toolCallId: childCallId(child, u.toolCallId) };
}

/** A child's permission request as the parent's chat asks it: its call under its childCallId. */
export function childRequest(req: RequestPermissionRequest): RequestPermissionRequest {
  return { ...req, toolCall: { ...req.toolCall, toolCallId: childCallId(req.sessionId, req.toolCall.toolCallId) } };
}

/** The child session a subagent_update's tool call is linked to (the task's call, `_meta.subagent_session_id`), if any. */
export function linkedChild(u: AgentUpdate): string | undefined {
  if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") return undefined;
  const id = u._meta?.["subagent_session_id"];
  return typeof id === "string" ? id : undefined;
}
