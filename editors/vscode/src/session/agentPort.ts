import type { AgentCapabilities, ContentBlock, SessionConfigOption, SessionInfo } from "@agentclientprotocol/sdk";
import type { SteerOutcome } from "../steering/steering";

/** What a session-opening call answers that the chat shows: the session's config options. */
export interface SessionOptions {
  readonly configOptions?: SessionConfigOption[] | null;
}

/** The agent operations the chat uses (AgentClient, or a fake in tests). */
export interface AgentPort {
  newSession(cwd: string): Promise<SessionOptions & { readonly sessionId: string }>;
  loadSession(sessionId: string, cwd: string): Promise<SessionOptions>;
  resumeSession(sessionId: string, cwd: string): Promise<SessionOptions>;
  listSessions(cwd?: string): Promise<{ readonly sessions: SessionInfo[] }>;
  prompt(sessionId: string, prompt: ContentBlock[]): Promise<{ readonly stopReason: string }>;
  cancel(sessionId: string): Promise<void>;
  /** Hands prompt to the session's running turn (_session/steering); absent: the agent does not steer. */
  steer?(sessionId: string, prompt: ContentBlock[]): Promise<SteerOutcome>;
  setConfigOption(sessionId: string, configId: string, value: string): Promise<SessionConfigOption[]>;
  /** What the agent said it can do at initialize. */
  capabilities(): Promise<AgentCapabilities>;
  /** session/delete (only when capabilities().sessionCapabilities.delete is set). */
  deleteSession(sessionId: string): Promise<void>;
}
