// The _session/steering extension method as claude-agent-acp and codex-acp
// implement it, and dsh-acp serves: what the user sends while a turn runs
// is read by the agent at its next step. Pure: no vscode import.
import type { ContentBlock } from "@agentclientprotocol/sdk";

/** The extension method's name. */
export const STEERING_METHOD = "_session/steering";

/** How a steering request ended: read by the running turn, refused for want of one (idle), or not served by this agent. */
export type SteerOutcome = "injected" | "idle" | "unsupported";

/** Whether the agent's initialize answer advertises steering (_meta.steering.supported: true). */
export function steeringSupported(init: { readonly _meta?: Readonly<Record<string, unknown>> | null }): boolean {
  const steering = init._meta?.["steering"];
  return steering !== null && typeof steering === "object" && (steering as { supported?: unknown }).supported === true;
}

/**
 * The params of a steering request for prompt. It asks the agent not to
 * start a turn of its own when none runs (idleBehavior promptRequired):
 * the client then sends the message as a prompt, whose turn it sees end.
 */
export function steeringParams(sessionId: string, prompt: ContentBlock[]): { sessionId: string; prompt: ContentBlock[]; _meta: { steering: { idleBehavior: "promptRequired" } } } {
  return { sessionId, prompt, _meta: { steering: { idleBehavior: "promptRequired" } } };
}

/**
 * The outcome a steering answer reports: promptRequired is idle; any other
 * answer (injected, or startedNewTurn from an agent that ignored the idle
 * behaviour) means the agent took the message.
 */
export function steerOutcome(res: unknown): SteerOutcome {
  const outcome = res !== null && typeof res === "object" ? (res as { outcome?: unknown }).outcome : undefined;
  return outcome === "promptRequired" ? "idle" : "injected";
}
