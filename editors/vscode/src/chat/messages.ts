import type {
  AvailableCommand,
  PermissionOption,
  SessionConfigOption,
  SessionInfo,
} from "@agentclientprotocol/sdk";
import type { AgentUpdate } from "../client/unstable";

/** A review list row as the chat view shows it. */
export interface ReviewRow {
  readonly path: string;
  readonly created: boolean;
  /** Lines added and removed against the file before the agent's first unreviewed change. */
  readonly added: number;
  readonly removed: number;
  /** The earlier conversation that made the change (its title, or "" when unknown); absent for the conversation shown. */
  readonly conversation?: string;
}

/** Messages from the extension to the chat webview. */
export type ToWebview =
  /** An update of the chat's session, or of its subagent session child (shown in the child's block). */
  | { readonly type: "update"; readonly update: AgentUpdate; readonly child?: string }
  | { readonly type: "reset"; readonly sessionId: string | undefined }
  | { readonly type: "userPrompt"; readonly text: string; readonly context?: string | undefined }
  | { readonly type: "turn"; readonly running: boolean; readonly stopReason?: string }
  | { readonly type: "permission"; readonly requestId: string; readonly toolCallId: string; readonly title: string; readonly options: readonly PermissionOption[] }
  | { readonly type: "permissionResolved"; readonly requestId: string }
  | { readonly type: "sessions"; readonly sessions: readonly SessionInfo[]; readonly current: string | undefined }
  | { readonly type: "config"; readonly options: readonly SessionConfigOption[] }
  | { readonly type: "commands"; readonly commands: readonly AvailableCommand[] }
  | { readonly type: "review"; readonly files: readonly ReviewRow[] }
  | { readonly type: "reviewed"; readonly action: "accept" | "reject"; readonly paths: readonly string[] }
  | { readonly type: "workspace"; readonly root: string | undefined }
  | { readonly type: "turnCost"; readonly text: string }
  | { readonly type: "apiKey"; readonly stored: boolean }
  | { readonly type: "truncate"; readonly index: number }
  | { readonly type: "editorContext"; readonly label: string | undefined }
  | { readonly type: "mentions"; readonly query: string; readonly items: readonly MentionItem[] }
  | { readonly type: "notice"; readonly level: "info" | "error"; readonly text: string; readonly action?: NoticeAction }
  | { readonly type: "steer"; readonly text: string; readonly state: "sending" | "dropped" }
  | { readonly type: "queue"; readonly items: readonly { readonly id: string; readonly text: string }[] };

/**
 * One entry of the `@` list: picking it puts `@insert ` in the input.
 * A file (`src/a.ts`), a workspace symbol (`src/a.ts#L10-20`, its lines)
 * or the active editor's selection (`src/a.ts#L3-7`).
 */
export interface MentionItem {
  readonly kind: "file" | "symbol" | "selection";
  /** The text after "@": a path relative to the workspace, with "#L…" for lines. */
  readonly insert: string;
  /** What the list shows: the path, the symbol's name, "Selection". */
  readonly label: string;
  /** Shown beside the label: the symbol's kind and place, the selection's lines. */
  readonly detail?: string | undefined;
}

/** An image pasted or dropped into the input, sent with the prompt as an ACP image block. */
export interface PromptImage {
  readonly mimeType: string;
  /** The bytes, base64. */
  readonly data: string;
  /** The file's name, or "pasted image". */
  readonly name: string;
}

/** A button a notice may carry: signIn sets the API key. */
export type NoticeAction = "signIn";

/** Messages from the chat webview to the extension. */
export type FromWebview =
  | { readonly type: "ready" }
  | {
      readonly type: "prompt";
      readonly text: string;
      readonly withContext?: boolean;
      readonly queue?: boolean;
      readonly images?: readonly PromptImage[];
      /** Edit and resend: the conversation is first restored to before this message (see "restore"). */
      readonly restore?: { readonly index: number; readonly texts: readonly string[] };
    }
  | { readonly type: "restore"; readonly index: number; readonly texts: readonly string[] }
  | { readonly type: "stop" }
  /** Stops one subagent (session/cancel for its session alone). */
  | { readonly type: "stopSubagent"; readonly sessionId: string }
  | { readonly type: "newSession" }
  | { readonly type: "history" }
  | { readonly type: "newTab" }
  | { readonly type: "loadSession"; readonly sessionId: string }
  | { readonly type: "setConfig"; readonly configId: string; readonly value: string }
  | { readonly type: "permission"; readonly requestId: string; readonly optionId: string | undefined }
  | { readonly type: "openPath"; readonly path: string; readonly line?: number | null }
  | { readonly type: "openDiff"; readonly toolCallId: string; readonly path: string }
  | { readonly type: "review"; readonly action: "accept" | "reject" | "diff"; readonly path: string }
  | { readonly type: "reviewAll"; readonly action: "accept" | "reject" | "view" }
  | { readonly type: "signIn" }
  | { readonly type: "openLink"; readonly href: string }
  | { readonly type: "copy"; readonly text: string }
  /** A code block's text, to put in the active text editor in place of its selections. */
  | { readonly type: "insert"; readonly text: string }
  | { readonly type: "mention"; readonly query: string }
  | { readonly type: "unqueue"; readonly id: string };

const FROM_TYPES: ReadonlySet<string> = new Set([
  "ready", "prompt", "restore", "stop", "stopSubagent", "newSession", "history", "newTab", "loadSession", "setConfig", "permission", "openPath", "openDiff", "review", "reviewAll", "signIn", "openLink", "copy", "insert", "mention", "unqueue",
]);

/** Whether v is a message the webview may send (checked by type tag; fields are read defensively). */
export function isFromWebview(v: unknown): v is FromWebview {
  return v !== null && typeof v === "object" && typeof (v as { type?: unknown }).type === "string" && FROM_TYPES.has((v as { type: string }).type);
}
