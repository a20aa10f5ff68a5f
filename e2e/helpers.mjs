// Shared helpers for the end-to-end tests: build (or find) the dsh-acp
// binary, spawn it with a scripted model in a fresh workspace, and drive it
// with the official ACP TypeScript SDK 2.x client() over its stdio, the way
// Zed does.

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { describe, before, after, afterEach } from "node:test";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";

/** The module root (the directory holding go.mod). */
export const MODULE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Zed's exact initialize request (reference acp-peers-and-zed.md §4). */
export const ZED_INITIALIZE = Object.freeze({
  protocolVersion: 1,
  clientCapabilities: {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: true,
    auth: { terminal: true },
    _meta: { terminal_output: true, "terminal-auth": true },
  },
  clientInfo: { name: "zed", version: "0.210.0", title: "Zed" },
});

let builtBinary;
let buildDir;

/**
 * Returns the path of the dsh-acp binary: $DSH_ACP_BIN when set, else a
 * fresh `go build` into a temporary directory (built once per process).
 */
export function agentBinary() {
  if (process.env.DSH_ACP_BIN) return path.resolve(process.env.DSH_ACP_BIN);
  if (builtBinary) return builtBinary;
  buildDir = mkdtempSync(path.join(tmpdir(), "dsh-acp-e2e-bin-"));
  const out = path.join(buildDir, "dsh-acp");
  execFileSync("go", ["build", "-o", out, "./cmd/dsh-acp"], {
    cwd: MODULE_ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  builtBinary = out;
  return out;
}

/** Removes the binary built by agentBinary, if any. */
export function removeBuiltBinary() {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  buildDir = undefined;
  builtBinary = undefined;
}

/** Encodes a scripted model (one object per model request) as JSONL. */
export function scriptLines(steps) {
  return steps.map((s) => JSON.stringify(s)).join("\n") + (steps.length ? "\n" : "");
}

/** Resolves after ms milliseconds. */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls cond() until it returns a truthy value or timeoutMs passes; returns
 * the value or throws with what.
 */
export async function waitFor(cond, { timeoutMs = 60_000, intervalMs = 20, what = "condition" } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** Whether pid names a live process (absent or zombie counts as gone). */
export function pidAlive(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  // The state follows the parenthesised command name, which may hold spaces.
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

/** The pids listed one per line in file, once it holds at least n; else null. */
export function readPids(file, n) {
  if (!existsSync(file)) return null;
  const pids = readFileSync(file, "utf8").split("\n").filter(Boolean).map(Number);
  return pids.length >= n ? pids : null;
}

/** SIGKILLs whatever of pids still runs when test t ends. */
export function killAfter(t, pids) {
  t.after(() => {
    for (const pid of pids.filter(pidAlive)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  });
}

/**
 * A describe block whose tests start agents: the binary is built first,
 * every agent is stopped after each test, and the build is removed last.
 */
export function agentSuite(name, body) {
  describe(name, () => {
    before(() => {
      agentBinary();
    }, { timeout: 180_000 });
    afterEach(stopAll);
    after(async () => {
      await stopAll();
      removeBuiltBinary();
    });
    body();
  });
}

/** Every agent started by startAgent and not yet stopped. */
const running = new Set();

/**
 * Spawns the binary with DSH_MODEL_SCRIPT set to the given script in a
 * fresh workspace, connects an SDK client to it, and sends Zed's initialize.
 *
 * options:
 *   script      array of model steps (or a JSONL string)
 *   args        extra command-line flags
 *   files       {relativePath: content} created in the workspace first
 *   permission  ({params}) => optionId | outcome object; default rejects
 *   initialize  the initialize params (default ZED_INITIALIZE)
 *   env         extra environment variables for the agent
 *   buffers     {path: text} the editor holds unsaved, paths relative to
 *               the workspace (served by
 *               fs/read_text_file before the disk; a write replaces them)
 *   setup       (root, workspace) => void, run after the files are made
 *   root        an existing directory to run in (its ws/ and state/), kept
 *               when the agent stops: a second agent sees the first's
 *               stored sessions
 *   model       {baseURL, name?}: an OpenAI-compatible server instead of a
 *               script (the key is a placeholder)
 *   sdk         the SDK module the client is built with (default the
 *               stable one; "@agentclientprotocol/sdk/unstable" parses
 *               unstable updates such as subagent_update)
 *
 * The returned agent records every message the client sees.
 */
export async function startAgent(options = {}) {
  const root = options.root ?? mkdtempSync(path.join(tmpdir(), "dsh-acp-e2e-"));
  const workspace = path.join(root, "ws");
  mkdirSync(workspace, { recursive: true });
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    const p = path.join(workspace, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  options.setup?.(root, workspace);
  const scriptPath = path.join(root, "model.jsonl");
  const script = options.script ?? [];
  writeFileSync(scriptPath, typeof script === "string" ? script : scriptLines(script));

  const env = { ...process.env, ...options.env, DSH_MODEL_SCRIPT: scriptPath, DSH_STATE_DIR: path.join(root, "state") };
  delete env.DSH_API_KEY;
  delete env.DEEPSEEK_API_KEY;
  if (options.model) {
    delete env.DSH_MODEL_SCRIPT;
    env.DSH_BASE_URL = options.model.baseURL;
    env.DSH_MODEL = options.model.name ?? "fake-model";
    env.DSH_API_KEY = "placeholder-key";
  }
  // Never read the user's own config file or stored keys.
  env.XDG_CONFIG_HOME = options.env?.XDG_CONFIG_HOME ?? path.join(root, "config");
  if (!options.env?.DSH_CONFIG) delete env.DSH_CONFIG;
  const child = spawn(agentBinary(), options.args ?? [], {
    cwd: workspace,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });

  const a = {
    child,
    root,
    workspace,
    scriptPath,
    /** Every session/update's params, in arrival order. */
    notifications: [],
    /** Every session/request_permission's params. */
    permissions: [],
    /** Every fs/read_text_file's params. */
    reads: [],
    /** Every fs/write_text_file's params. */
    writes: [],
    /** Raw bytes the agent wrote to stdout. */
    stdoutChunks: [],
    stderr: "",
    exit: null,
  };
  a.exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      a.exit = { code, signal };
      resolve(a.exit);
    });
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => {
    a.stderr += d;
  });
  // Don't let a write to an already-dead child crash the test process.
  child.stdin.on("error", () => {});

  // The child's stdout as a web stream, with a copy of every chunk kept.
  const input = new ReadableStream({
    start(ctrl) {
      child.stdout.on("data", (chunk) => {
        a.stdoutChunks.push(Buffer.from(chunk));
        // The client may have closed its end already (a test that stopped
        // reading, or the connection closed): the bytes are still recorded.
        try {
          ctrl.enqueue(new Uint8Array(chunk));
        } catch {}
      });
      child.stdout.on("end", () => {
        try {
          ctrl.close();
        } catch {}
      });
      child.stdout.on("error", (e) => {
        try {
          ctrl.error(e);
        } catch {}
      });
    },
  });
  const output = new WritableStream({
    write(chunk) {
      return new Promise((resolve, reject) => {
        if (child.stdin.destroyed || !child.stdin.writable) return reject(new Error("agent stdin closed"));
        child.stdin.write(chunk, (err) => (err ? reject(err) : resolve()));
      });
    },
    close() {
      child.stdin.end();
    },
  });

  const permission = options.permission ?? (() => "reject-once");
  const buffers = new Map(
    Object.entries(options.buffers ?? {}).map(([rel, text]) => [path.resolve(workspace, rel), text]),
  );
  const sdk = options.sdk ?? acp;
  const app = sdk
    .client({ name: "dsh-acp-e2e" })
    .onNotification("session/update", async ({ params }) => {
      a.notifications.push(params);
    })
    .onRequest("session/request_permission", async ({ params }) => {
      a.permissions.push(params);
      const answer = await permission({ params, agent: a });
      if (typeof answer === "string") return { outcome: { outcome: "selected", optionId: answer } };
      return answer;
    })
    .onRequest("fs/read_text_file", async ({ params }) => {
      a.reads.push(params);
      let text = buffers.get(params.path);
      try {
        text ??= readFileSync(params.path, "utf8");
      } catch {
        throw acp.RequestError.resourceNotFound(params.path);
      }
      if (params.line != null || params.limit != null) {
        const lines = text.split(/(?<=\n)/);
        const start = Math.max(0, (params.line ?? 1) - 1);
        const end = params.limit != null ? start + params.limit : lines.length;
        text = lines.slice(start, end).join("");
      }
      return { content: text };
    })
    .onRequest("fs/write_text_file", async ({ params }) => {
      a.writes.push(params);
      buffers.delete(params.path);
      mkdirSync(path.dirname(params.path), { recursive: true });
      writeFileSync(params.path, params.content);
      return {};
    });
  a.conn = app.connect(sdk.ndJsonStream(output, input));
  a.agent = a.conn.agent;
  running.add(a);

  /** The updates (params.update) so far, optionally for one tool call id. */
  a.updates = (toolCallId) =>
    a.notifications.map((n) => n.update).filter((u) => toolCallId === undefined || u.toolCallId === toolCallId);

  /** Every line the agent wrote to stdout. */
  a.stdoutLines = () => {
    const text = Buffer.concat(a.stdoutChunks).toString("utf8");
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines;
  };

  /** session/new in the workspace; returns the session id. */
  a.newSession = async (params = {}) => {
    const res = await a.agent.request("session/new", { cwd: workspace, mcpServers: [], ...params });
    return res.sessionId;
  };

  /** session/prompt with one text block; returns the PromptResponse. */
  a.prompt = (sessionId, text, opts) =>
    a.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }, opts);

  /** Closes stdin and waits for the process to exit (killing it after ms). */
  a.closeStdin = async (ms = 60_000) => {
    child.stdin.end();
    const t = setTimeout(() => child.kill("SIGKILL"), ms);
    const exit = await a.exited;
    clearTimeout(t);
    return exit;
  };

  /** Kills the agent if it still runs and removes its directories. */
  a.stop = async () => {
    running.delete(a);
    try {
      a.conn.close();
    } catch {}
    if (a.exit === null) {
      child.stdin.destroy();
      const t = setTimeout(() => child.kill("SIGKILL"), 2000);
      await a.exited;
      clearTimeout(t);
    }
    if (!options.root) rmSync(root, { recursive: true, force: true });
  };

  a.initializeResponse = await a.agent.request("initialize", options.initialize ?? ZED_INITIALIZE);
  return a;
}

/** Stops every agent still running (for after hooks). */
export async function stopAll() {
  await Promise.all([...running].map((a) => a.stop()));
}
