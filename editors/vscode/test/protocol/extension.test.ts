// The whole extension (activate() with the stub vscode module) against the
// real dsh-acp and a scripted model: a prompt through the controller, the
// bash approval answered on the modal, the write applied as a
// WorkspaceEdit, the command's output in a terminal, a rejected file
// restored and reported to the agent on the next prompt.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import * as vscode from "vscode";
import { activate } from "../../src/extension";
import { rejectionNote } from "../../src/review/reviewList";
import type { BufferedPty } from "../../src/terminal/bufferedPty";
import { stub } from "../stubs/control";

const moduleRoot = path.resolve(__dirname, "..", "..", "..", "..", "..");

const SCRIPT = [
  { text: "Writing.", tool_calls: [{ id: "w1", name: "write", arguments: { file_path: "hello.sh", content: "echo hello from dsh\n" } }, { id: "w2", name: "write", arguments: { file_path: "keep.txt", content: "kept\n" } }] },
  { tool_calls: [{ id: "b1", name: "bash", arguments: { command: "sh hello.sh", description: "Run the script" } }] },
  { text: "Done." },
  { text: "Understood." },
];

describe("extension: activate() against dsh-acp", () => {
  let root: string;
  let binary: string;
  const saved = { ...process.env };

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), "dsh-vscode-ext-"));
    const prebuilt = process.env["DSH_ACP_BIN"];
    if (prebuilt) {
      binary = prebuilt;
    } else {
      binary = path.join(root, "dsh-acp");
      execFileSync("go", ["build", "-o", binary, "./cmd/dsh-acp"], { cwd: moduleRoot, stdio: "inherit" });
    }
  });
  after(() => {
    process.env = saved;
    rmSync(root, { recursive: true, force: true });
  });

  it("runs a turn end to end and rejects a file", async () => {
    stub.reset();
    const ws = path.join(root, "ws");
    mkdirSync(ws, { recursive: true });
    const scriptPath = path.join(root, "model.jsonl");
    writeFileSync(scriptPath, SCRIPT.map((s) => JSON.stringify(s)).join("\n") + "\n");
    process.env["DSH_MODEL_SCRIPT"] = scriptPath;
    process.env["DSH_STATE_DIR"] = path.join(root, "state");
    process.env["XDG_CONFIG_HOME"] = path.join(root, "config");
    process.env["DSH_VSCODE_RESULTS"] = path.join(root, "results.jsonl");
    delete process.env["DSH_API_KEY"];
    delete process.env["DEEPSEEK_API_KEY"];
    delete process.env["DSH_CONFIG"];
    stub.settings["dsh.path"] = binary;
    stub.settings["dsh.follow"] = false;
    (vscode.workspace as { workspaceFolders: unknown }).workspaceFolders = [{ uri: vscode.Uri.file(ws) }];
    stub.warningAnswer = (_m, items) => items.find((i) => i === "Allow") ?? items[0];

    const subscriptions: { dispose(): unknown }[] = [];
    const ctx = {
      subscriptions,
      extensionUri: vscode.Uri.file("/ext"),
      extension: { packageJSON: { version: "0.1.0" } },
      secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose: () => undefined }) },
      workspaceState: { get: () => undefined, update: async () => undefined },
    } as unknown as vscode.ExtensionContext;
    const api = activate(ctx);
    try {
      assert.equal(await api.controller.prompt("write hello.sh and keep.txt, run hello.sh"), "end_turn");

      const hello = path.join(ws, "hello.sh");
      const keep = path.join(ws, "keep.txt");
      assert.equal(readFileSync(hello, "utf8"), "echo hello from dsh\n");
      assert.ok(stub.edits.some((e) => e.ops.some((o) => o.uri.fsPath === hello)), "the write went through a WorkspaceEdit");
      const warning = stub.warnings.find((w) => (w.options as { detail?: string }).detail === "sh hello.sh");
      assert.ok(warning, "the modal showed the full command");

      const term = stub.terminals.find((t) => t.name === "dsh: sh hello.sh");
      assert.ok(term, "a terminal named after the command");
      const pty = term.pty as BufferedPty;
      assert.match(pty.buffered.join(""), /hello from dsh/);
      assert.equal(pty.status, "status 0");

      await api.controller.handle({ type: "review", action: "accept", path: keep });
      await api.controller.handle({ type: "review", action: "reject", path: hello });
      assert.equal(existsSync(hello), false, "the rejected new file is removed");
      assert.equal(readFileSync(keep, "utf8"), "kept\n");

      assert.equal(await api.controller.prompt("thanks"), "end_turn");
      const log = readFileSync(path.join(root, "state", "sessions", `${api.controller.currentSession}.jsonl`), "utf8");
      assert.ok(log.includes(JSON.stringify(rejectionNote([hello])).slice(1, 60)), "the agent was told about the rejection");

      // A new key or setting restarts dsh-acp; the conversation goes on in the same session.
      // The new process reads its scripted model from the start: give it one of its own.
      const session = api.controller.currentSession;
      const after = path.join(root, "after-restart.jsonl");
      writeFileSync(after, JSON.stringify({ text: "Still here after the restart." }) + "\n");
      process.env["DSH_MODEL_SCRIPT"] = after;
      await api.host.restart();
      assert.equal(await api.controller.prompt("still there?"), "end_turn");
      assert.equal(api.controller.currentSession, session);
      assert.ok(!stub.errors.some((e) => e.includes("unknown session")), stub.errors.join("; "));

      const results = readFileSync(path.join(root, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { event: string });
      assert.deepEqual(results.map((r) => r.event), ["permission", "turn", "review", "review", "turn", "turn"]);
    } finally {
      for (const s of subscriptions) s.dispose();
      await api.host.dispose();
    }
  });
});
