import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ReadTextFileRequest,
  ReadTextFileResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  WriteTextFileRequest,
} from "@agentclientprotocol/sdk";
import type { AgentNotification } from "./unstable";

/**
 * What the editor answers for the agent. The client calls sessionUpdate
 * for one session strictly in arrival order, each after the previous one
 * has settled.
 */
export interface ClientHandlers {
  /** Applies one session/update to the UI. */
  sessionUpdate(notification: AgentNotification): Promise<void> | void;
  /** Answers session/request_permission; signal aborts when the agent cancels the request. */
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** Answers elicitation/create (after the session's updates so far); signal aborts when the agent withdraws it. */
  createElicitation(request: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** Answers fs/read_text_file. */
  readTextFile(request: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  /** Answers fs/write_text_file. */
  writeTextFile(request: WriteTextFileRequest): Promise<void>;
}

/** Why the agent process went away. */
export interface AgentExit {
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it, or null. */
  readonly signal: NodeJS.Signals | null;
  /** The last lines it wrote to stderr. */
  readonly stderrTail: string;
  /** Whether the client starts it again. */
  readonly restarting: boolean;
}
