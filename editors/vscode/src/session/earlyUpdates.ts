import type { AgentNotification } from "../client/unstable";

/** How many updates are kept while session/new runs. */
export const EARLY_LIMIT = 256;

/**
 * The updates that arrive while session/new is awaited: the agent may
 * send the new session's first updates (its commands, say) before it
 * answers with the session's id. They are kept, up to a limit, until the
 * answer says which of them belong to the new session.
 */
export class EarlyUpdates {
  private kept: AgentNotification[] | undefined;

  /** Starts keeping updates (session/new was sent). */
  start(): void {
    this.kept = [];
  }

  /** Keeps n if session/new is being awaited and the limit is not reached. */
  keep(n: AgentNotification): void {
    if (this.kept && this.kept.length < EARLY_LIMIT) this.kept.push(n);
  }

  /** Stops keeping, and returns the kept updates of sessionId (none when session/new failed). */
  stop(sessionId?: string): AgentNotification[] {
    const kept = this.kept ?? [];
    this.kept = undefined;
    return sessionId === undefined ? [] : kept.filter((n) => n.sessionId === sessionId);
  }
}
