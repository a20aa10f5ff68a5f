import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, afterEach, before, beforeEach } from "node:test";
import type { ToWebview } from "../../src/chat/messages";
import type { AgentClient } from "../../src/client/agentClient";
import type { FieldPrompter } from "../../src/elicitation/walk";
import type { ChatController } from "../../src/session/controller";
import { stub } from "../stubs/control";
import { processChat, type ProcessChat } from "./chat";

const moduleRoot = path.resolve(__dirname, "..", "..", "..", "..", "..");

/** The dsh-acp binary the protocol tests run: DSH_ACP_BIN, else one built from this repository into dir. */
export function dshAcpBinary(dir: string): string {
  const prebuilt = process.env["DSH_ACP_BIN"];
  if (prebuilt) return prebuilt;
  const binary = path.join(dir, "dsh-acp");
  execFileSync("go", ["build", "-o", binary, "./cmd/dsh-acp"], { cwd: moduleRoot, stdio: "inherit" });
  return binary;
}

/**
 * The environment of a dsh-acp whose model answers with script, one
 * line per model request in the order they come (a subagent's requests
 * among its parent's), its state and config in dir, no API key.
 */
export function scriptedEnv(dir: string, script: readonly unknown[]): NodeJS.ProcessEnv {
  const scriptPath = path.join(dir, "model.jsonl");
  writeFileSync(scriptPath, script.map((x) => JSON.stringify(x)).join("\n") + "\n");
  const env: NodeJS.ProcessEnv = { ...process.env, DSH_MODEL_SCRIPT: scriptPath, DSH_STATE_DIR: path.join(dir, "state"), XDG_CONFIG_HOME: path.join(dir, "config") };
  delete env["DSH_API_KEY"];
  delete env["DEEPSEEK_API_KEY"];
  delete env["DSH_CONFIG"];
  return env;
}

/** The chats of one protocol suite: each test's own directory and workspace, the chats it started. */
export interface DshAcpRuns {
  /** The test's directory (dsh-acp's state and config, the model's script). */
  readonly dir: () => string;
  /** The test's workspace, the chat's cwd (dir/ws). */
  readonly ws: () => string;
  /** A chat on dsh-acp whose model answers with script, one line per model request; disposed after the test. */
  readonly chat: (script: readonly unknown[], opts: { post: (m: ToWebview, c: ChatController) => void; prompter?: FieldPrompter | undefined }) => ChatController;
  /** The client of the oldest chat still running, once it has started. */
  readonly firstClient: () => AgentClient | undefined;
  /** Stops the oldest chat still running (a session is open in one process at a time). */
  readonly stopFirst: () => Promise<void>;
}

/**
 * Sets up the suite it is called in (node:test hooks): one dsh-acp
 * binary (dshAcpBinary) under a temporary root named after prefix, a
 * fresh directory and workspace and a reset VS Code stub per test, and
 * every chat's client disposed after it.
 */
export function dshAcpRuns(prefix: string): DshAcpRuns {
  let root = "";
  let binary = "";
  let dir = "";
  const clients: (() => AgentClient | undefined)[] = [];
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), `dsh-vscode-${prefix}-`));
    binary = dshAcpBinary(root);
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    stub.reset();
    dir = mkdtempSync(path.join(root, "run-"));
    mkdirSync(path.join(dir, "ws"));
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c()?.dispose();
  });
  return {
    dir: () => dir,
    ws: () => path.join(dir, "ws"),
    chat: (script, { post, prompter }) => {
      const c: ProcessChat = processChat({ binary, cwd: path.join(dir, "ws"), env: scriptedEnv(dir, script), post: (m) => post(m, c.controller), prompter });
      clients.push(c.client);
      return c.controller;
    },
    firstClient: () => clients[0]?.(),
    stopFirst: async () => {
      await clients.shift()?.()?.dispose();
    },
  };
}
