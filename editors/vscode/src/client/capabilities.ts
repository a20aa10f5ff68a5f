import type { InitializeRequest } from "@agentclientprotocol/sdk/unstable";

/** The protocol version this client speaks. */
export const PROTOCOL_VERSION = 1;

/**
 * The initialize request: the editor reads and writes files (so unsaved
 * buffers and undo work), runs no terminals for the agent (dsh-acp runs its
 * commands itself) but shows their output through the display-only
 * `_meta.terminal_output` convention, and can run a sign-in terminal. It
 * presents notices (as VS Code notifications) and compactions (as progress
 * in the chat), and answers form elicitations (as QuickPick and InputBox
 * steps; not URL ones). It shows subagents (the unstable
 * `subagents`): each child session as a block in its parent's turn, and
 * plans by their ids (the unstable `plan`: plan_update with items or
 * Markdown, plan_removed).
 */
export function initializeRequest(version: string): InitializeRequest {
  return {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: false,
      auth: { terminal: true },
      session: { notices: {}, compaction: {} },
      elicitation: { form: {} },
      subagents: {},
      plan: {},
      _meta: { terminal_output: true, "terminal-auth": true },
    },
    clientInfo: { name: "dsh-vscode", title: "dsh for VS Code", version },
  };
}
