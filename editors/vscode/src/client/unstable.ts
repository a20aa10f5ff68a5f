// The one module that reads ACP's unstable v1 types: what the extension
// takes of the unstable surface it advertises (clientCapabilities.subagents
// and clientCapabilities.plan).
// Everything else speaks the stable types; a notification comes through
// here to be one of them or a child's announcement.
import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import type * as unstable from "@agentclientprotocol/sdk/unstable";

/** A child session's announcement or state change, sent on its parent session (subagent_update). */
export type SubagentAnnouncement = Extract<unstable.SessionUpdate, { sessionUpdate: "subagent_update" }>;

/** A child's work state as subagent_update reports it. */
export type SubagentWorkState = NonNullable<SubagentAnnouncement["state"]>;

/** A plan created or replaced by its id: items, Markdown or a file (plan_update). */
export type PlanOperation = Extract<unstable.SessionUpdate, { sessionUpdate: "plan_update" }>;

/** A plan removed by its id (plan_removed). */
export type PlanRemoval = Extract<unstable.SessionUpdate, { sessionUpdate: "plan_removed" }>;

/** The unstable updates the extension advertises and shows. */
export type UnstableUpdate = SubagentAnnouncement | PlanOperation | PlanRemoval;

/** An update the chats handle: a stable one, or one of the unstable ones it advertises. */
export type AgentUpdate = SessionUpdate | UnstableUpdate;

/** A session/update as the client hands it to the chats. */
export type AgentNotification = SessionNotification | { readonly sessionId: string; readonly update: UnstableUpdate };

/** The unstable session/update the connection parses (the SDK's unstable entrypoint). */
export type WireNotification = unstable.SessionNotification;

/** The update kinds only the unstable schema has; of them the extension shows subagent_update, plan_update and plan_removed. */
const UNSTABLE_ONLY: ReadonlySet<string> = new Set(["plan_update", "plan_removed", "subagent_update", "session_message", "session_message_chunk"]);

function isStable(n: WireNotification): n is SessionNotification {
  return !UNSTABLE_ONLY.has(n.update.sessionUpdate);
}

/**
 * The notification as the chats take it: a stable update or an unstable
 * one the extension advertises, as it is; undefined for an unstable
 * update it did not advertise (it is dropped).
 */
export function agentNotification(n: WireNotification): AgentNotification | undefined {
  const u = n.update;
  if (u.sessionUpdate === "subagent_update" || u.sessionUpdate === "plan_update" || u.sessionUpdate === "plan_removed") return { sessionId: n.sessionId, update: u };
  return isStable(n) ? n : undefined;
}
