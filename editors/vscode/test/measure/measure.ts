// Prints the extension's measured numbers: the bundled extension's load +
// activate() time under the stub vscode module, and the latency from the
// client receiving an agent_message_chunk to the postMessage towards the
// webview (through the per-session update queue and the controller).
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type * as vscode from "vscode";
import type { AgentCapabilities, ContentBlock, SessionConfigOption, SessionInfo } from "@agentclientprotocol/sdk";
import { SerialQueue } from "../../src/client/serialQueue";
import { DiffContentProvider } from "../../src/diff/provider";
import { Follower } from "../../src/follow";
import { ReviewList } from "../../src/review/reviewList";
import type { AgentPort } from "../../src/session/agentPort";
import { ChatController } from "../../src/session/controller";
import { ResultsLog } from "../../src/session/resultsLog";
import { UsageStatus } from "../../src/status/usage";
import { CommandTerminals } from "../../src/terminal/terminals";

function context(): vscode.ExtensionContext {
  return {
    subscriptions: [],
    extensionUri: { scheme: "file", path: "/ext", fsPath: "/ext" },
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose: () => undefined }) },
    extension: { packageJSON: { version: "0.0.0" } },
    workspaceState: { get: () => undefined, update: async () => undefined },
  } as unknown as vscode.ExtensionContext;
}

function activation(): number {
  const dist = path.resolve(__dirname, "..", "..", "..", "dist", "extension.js");
  const req = createRequire(__filename);
  const t0 = performance.now();
  const ext = req(dist) as { activate(ctx: vscode.ExtensionContext): unknown };
  ext.activate(context());
  return performance.now() - t0;
}

class IdleAgent implements AgentPort {
  async newSession(): Promise<{ sessionId: string; configOptions?: SessionConfigOption[] | null }> {
    return { sessionId: "s1" };
  }
  async loadSession(): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    return {};
  }
  async resumeSession(): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    return {};
  }
  async listSessions(): Promise<{ sessions: SessionInfo[] }> {
    return { sessions: [] };
  }
  async prompt(_s: string, _p: ContentBlock[]): Promise<{ stopReason: string }> {
    return { stopReason: "end_turn" };
  }
  async cancel(): Promise<void> {
    // Nothing runs, so nothing to cancel.
  }
  async setConfigOption(): Promise<SessionConfigOption[]> {
    return [];
  }
  async capabilities(): Promise<AgentCapabilities> {
    return {};
  }
  async deleteSession(): Promise<void> {
    // Nothing is stored.
  }
}

async function firstText(n: number): Promise<number[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-measure-"));
  let posted = 0;
  const controller = new ChatController({
    agent: async () => new IdleAgent(),
    post: (m) => {
      if (m.type === "update") posted = performance.now();
    },
    diffs: new DiffContentProvider(),
    review: new ReviewList(async () => true),
    terminals: new CommandTerminals(),
    follower: new Follower(() => false),
    usage: new UsageStatus(),
    results: new ResultsLog(undefined),
    cwd: () => dir,
  });
  await controller.newSession();
  const queue = new SerialQueue();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await queue.run(() => controller.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hello" } } }));
    out.push(posted - t0);
  }
  rmSync(dir, { recursive: true, force: true });
  return out;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main(): Promise<void> {
  const act = activation();
  console.log(`activation (require dist/extension.js + activate(), stub vscode): ${act.toFixed(1)} ms (target <= 200 ms)`);
  const lat = await firstText(2000);
  console.log(
    `agent_message_chunk -> webview postMessage (n=${lat.length}): first ${(lat[0] ?? NaN).toFixed(3)} ms, median ${pct(lat, 50).toFixed(4)} ms, p99 ${pct(lat, 99).toFixed(4)} ms (target <= 50 ms)`,
  );
}

void main();
