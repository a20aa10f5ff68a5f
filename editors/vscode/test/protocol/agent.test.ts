// The extension's client module (no vscode import) against the real
// dsh-acp, built from this repository, with a scripted model.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import type { RequestPermissionRequest, WriteTextFileRequest } from "@agentclientprotocol/sdk";
import type { AgentNotification } from "../../src/client/unstable";
import { AgentClient } from "../../src/client/agentClient";
import type { AgentExit } from "../../src/client/handlers";

const moduleRoot = path.resolve(__dirname, "..", "..", "..", "..", "..");

const SCRIPT = [
  { text: "Writing the script.", tool_calls: [{ id: "w1", name: "write", arguments: { file_path: "hello.sh", content: "#!/bin/sh\necho hello from dsh\n" } }] },
  { tool_calls: [{ id: "b1", name: "bash", arguments: { command: "sh hello.sh", description: "Run the script" } }] },
  { text: "Done: hello.sh greets." },
];

describe("protocol: the client module against dsh-acp", () => {
  let root: string;
  let binary: string;

  before(() => {
    root = mkdtempSync(path.join(tmpdir(), "dsh-vscode-protocol-"));
    const prebuilt = process.env["DSH_ACP_BIN"];
    if (prebuilt) {
      binary = prebuilt;
    } else {
      binary = path.join(root, "dsh-acp");
      execFileSync("go", ["build", "-o", binary, "./cmd/dsh-acp"], { cwd: moduleRoot, stdio: "inherit" });
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("initializes, starts a session, runs a prompt with a write and an approved bash call to end_turn", async () => {
    const ws = path.join(root, "ws");
    mkdirSync(ws, { recursive: true });
    const scriptPath = path.join(root, "model.jsonl");
    writeFileSync(scriptPath, SCRIPT.map((s) => JSON.stringify(s)).join("\n") + "\n");
    const updates: AgentNotification[] = [];
    const permissions: RequestPermissionRequest[] = [];
    const writes: WriteTextFileRequest[] = [];
    const exits: AgentExit[] = [];
    const env: NodeJS.ProcessEnv = { ...process.env, DSH_MODEL_SCRIPT: scriptPath, DSH_STATE_DIR: path.join(root, "state"), XDG_CONFIG_HOME: path.join(root, "config") };
    delete env["DSH_API_KEY"];
    delete env["DEEPSEEK_API_KEY"];
    delete env["DSH_CONFIG"];
    const client = new AgentClient({
      binary,
      cwd: ws,
      env: () => env,
      version: "test",
      onExit: (e) => exits.push(e),
      handlers: {
        sessionUpdate: (n) => void updates.push(n),
        requestPermission: async (req) => {
          permissions.push(req);
          const allow = req.options.find((o) => o.kind === "allow_once");
          assert.ok(allow, "an allow-once option is offered");
          return { outcome: { outcome: "selected", optionId: allow.optionId } };
        },
        createElicitation: async () => ({ action: "decline" }),
        readTextFile: async (req) => ({ content: readFileSync(req.path, "utf8") }),
        writeTextFile: async (req) => {
          writes.push(req);
          writeFileSync(req.path, req.content);
        },
      },
    });
    try {
      const init = await client.start();
      assert.equal(init.protocolVersion, 1);
      const { sessionId } = await client.newSession(ws);
      const res = await client.prompt(sessionId, [{ type: "text", text: "write hello.sh and run it" }]);
      assert.equal(res.stopReason, "end_turn");

      assert.deepEqual(writes.map((w) => path.basename(w.path)), ["hello.sh"]);
      assert.equal(readFileSync(path.join(ws, "hello.sh"), "utf8"), "#!/bin/sh\necho hello from dsh\n");
      assert.ok(permissions.some((p) => p.toolCall.toolCallId === "b1"), "the bash call asked");

      const kinds = updates.map((u) => u.update.sessionUpdate);
      assert.ok(kinds.includes("agent_message_chunk"));
      assert.ok(kinds.includes("tool_call"));
      const text = updates.flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? [u.update.content.text] : [])).join("");
      assert.match(text, /Done: hello\.sh greets\./);
      const bash = updates.map((u) => u.update).filter((u) => (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u.toolCallId === "b1");
      assert.ok(bash.some((u) => u._meta && "terminal_info" in u._meta), "the bash call announces a display terminal");
      const output = bash.map((u) => (u._meta?.["terminal_output"] as { data?: string } | undefined)?.data ?? "").join("");
      assert.match(output, /hello from dsh/);
      assert.ok(bash.some((u) => u._meta && "terminal_exit" in u._meta), "the terminal's exit is reported");
      assert.ok(bash.some((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed"));

      const listed = await client.listSessions(ws);
      assert.ok(listed.sessions.some((s) => s.sessionId === sessionId));
    } finally {
      await client.dispose();
    }
    assert.deepEqual(exits, [], "no unexpected exit");
  });

  it("steers a running turn: the message sent while a command awaits approval reaches the turn's next step", async () => {
    const dir = mkdtempSync(path.join(root, "steer-"));
    const ws = path.join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    const scriptPath = path.join(dir, "model.jsonl");
    writeFileSync(path.join(ws, "run.sh"), "echo first\n");
    // A command that asks (a script runs whatever it holds): the turn waits on the user.
    const script = [{ tool_calls: [{ id: "b1", name: "bash", arguments: { command: "sh run.sh", description: "First" } }] }, { text: "Taking the v2 API." }];
    writeFileSync(scriptPath, script.map((x) => JSON.stringify(x)).join("\n") + "\n");
    const env: NodeJS.ProcessEnv = { ...process.env, DSH_MODEL_SCRIPT: scriptPath, DSH_STATE_DIR: path.join(dir, "state"), XDG_CONFIG_HOME: path.join(dir, "config") };
    delete env["DSH_API_KEY"];
    delete env["DEEPSEEK_API_KEY"];
    delete env["DSH_CONFIG"];
    const seen: string[] = [];
    let sessionId = "";
    const outcomes: string[] = [];
    const client: AgentClient = new AgentClient({
      binary,
      cwd: ws,
      env: () => env,
      version: "test",
      handlers: {
        sessionUpdate: (n) => {
          const u = n.update;
          if (u.sessionUpdate === "user_message_chunk" && u.content.type === "text") seen.push(`user: ${u.content.text}`);
          if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") seen.push(`agent: ${u.content.text}`);
          if (u.sessionUpdate === "tool_call_update" && u.status === "completed") seen.push(`done: ${u.toolCallId}`);
        },
        // The turn is running while it asks: the user steers it, then allows.
        requestPermission: async (req) => {
          outcomes.push(await client.steer(sessionId, [{ type: "text", text: "use the v2 API instead" }]));
          const allow = req.options.find((o) => o.kind === "allow_once");
          assert.ok(allow);
          return { outcome: { outcome: "selected", optionId: allow.optionId } };
        },
        createElicitation: async () => ({ action: "decline" }),
        readTextFile: async (req) => ({ content: readFileSync(req.path, "utf8") }),
        writeTextFile: async (req) => writeFileSync(req.path, req.content),
      },
    });
    try {
      await client.start();
      sessionId = (await client.newSession(ws)).sessionId;
      assert.equal((await client.prompt(sessionId, [{ type: "text", text: "call the API" }])).stopReason, "end_turn");
      assert.deepEqual(outcomes, ["injected"]);
      // After the running tool batch, never interrupting it; before the next answer.
      const steered = seen.indexOf("user: use the v2 API instead");
      assert.ok(seen.includes("done: b1") && steered > seen.indexOf("done: b1"), seen.join(" | "));
      assert.ok(steered < seen.findIndex((x) => x.startsWith("agent: Taking")), seen.join(" | "));
      assert.equal(await client.steer(sessionId, [{ type: "text", text: "idle now" }]), "idle", "no turn runs: the client is told, nothing starts");
    } finally {
      await client.dispose();
    }
  });

  it("restarts a killed dsh-acp, says so, and resumes the session", async () => {
    const dir = mkdtempSync(path.join(root, "restart-"));
    const ws = path.join(dir, "ws");
    mkdirSync(ws, { recursive: true });
    const scriptPath = path.join(dir, "model.jsonl");
    writeFileSync(scriptPath, [{ text: "first answer" }, { text: "second answer" }].map((x) => JSON.stringify(x)).join("\n") + "\n");
    const env: NodeJS.ProcessEnv = { ...process.env, DSH_MODEL_SCRIPT: scriptPath, DSH_STATE_DIR: path.join(dir, "state"), XDG_CONFIG_HOME: path.join(dir, "config") };
    delete env["DSH_API_KEY"];
    delete env["DEEPSEEK_API_KEY"];
    delete env["DSH_CONFIG"];
    const exits: AgentExit[] = [];
    let restarted: () => void = () => undefined;
    const restartedOnce = new Promise<void>((resolve) => (restarted = resolve));
    const text: string[] = [];
    const client = new AgentClient({
      binary,
      cwd: ws,
      env: () => env,
      version: "test",
      onExit: (e) => exits.push(e),
      onRestarted: () => restarted(),
      handlers: {
        sessionUpdate: (n) => {
          if (n.update.sessionUpdate === "agent_message_chunk" && n.update.content.type === "text") text.push(n.update.content.text);
        },
        requestPermission: async () => ({ outcome: { outcome: "cancelled" } }),
        createElicitation: async () => ({ action: "decline" }),
        readTextFile: async (req) => ({ content: readFileSync(req.path, "utf8") }),
        writeTextFile: async (req) => writeFileSync(req.path, req.content),
      },
    });
    try {
      await client.start();
      const { sessionId } = await client.newSession(ws);
      assert.equal((await client.prompt(sessionId, [{ type: "text", text: "one" }])).stopReason, "end_turn");
      // An answer may come in any number of chunks: each turn's text is compared whole.
      assert.equal(text.splice(0).join(""), "first answer", "the first turn answered");
      const pid = await client.pid();
      assert.ok(pid);
      process.kill(pid, "SIGKILL");
      await restartedOnce;
      assert.equal(exits.length, 1);
      assert.equal(exits[0]?.signal, "SIGKILL");
      assert.equal(exits[0].restarting, true);
      assert.notEqual(await client.pid(), pid);
      await client.resumeSession(sessionId, ws);
      assert.equal((await client.prompt(sessionId, [{ type: "text", text: "two" }])).stopReason, "end_turn");
      assert.notEqual(text.join(""), "", "the second turn answered too");
    } finally {
      await client.dispose();
    }
  });
});
