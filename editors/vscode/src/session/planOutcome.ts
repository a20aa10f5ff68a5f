import type { SessionUpdate, ToolKind } from "@agentclientprotocol/sdk";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

/** What a plan review's card says once the user approved the plan. */
export const PLAN_APPROVED = "Plan approved — implementing";
/** What a plan review's card says once the user chose to keep planning. */
export const PLAN_KEPT = "Keep planning";

/**
 * The outcomes dsh-acp's exit_plan_mode tells the model (tools/planmode:
 * its result is the model's instructions, and the bridge shows it as the
 * call's content), by how each begins, with what the user reads instead.
 */
const OUTCOMES: readonly { readonly start: string; readonly shown: string }[] = [
  { start: "The user approved the plan.", shown: PLAN_APPROVED },
  { start: "The user chose to keep planning", shown: PLAN_KEPT },
];

/**
 * The update as the chat view shows it when it completes a plan review (a
 * switch_mode call, kind as the session knows the call): the outcome in
 * the user's words instead of the text meant for the model. Any other
 * update is returned as it is.
 */
export function planOutcomeView(u: ToolUpdate, kind: ToolKind | undefined): ToolUpdate {
  if ((u.kind ?? kind) !== "switch_mode" || u.status !== "completed" || u.content == null) return u;
  const texts = u.content.flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text.trim()] : []));
  const outcome = OUTCOMES.find((o) => texts.some((t) => t.startsWith(o.start)));
  return outcome ? { ...u, content: [{ type: "content", content: { type: "text", text: outcome.shown } }] } : u;
}
