// The whole extension side (ChatController on AgentClient) against a
// stand-in agent on the SDK's agent side (test/fakes/acpAgent.ts), run as
// a process: what dsh-acp's ask_user and plan mode will send, steering,
// queueing, notices and compaction, end to end through the protocol.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { ElicitationContentValue } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import type { AgentClient } from "../../src/client/agentClient";
import type { FieldPrompter, StepResult } from "../../src/elicitation/walk";
import type { ChatController } from "../../src/session/controller";
import * as vscode from "vscode";
import { AnsweringPrompter, processChat } from "../fakes/chat";
import { stub } from "../stubs/control";

const AGENT = path.join(__dirname, "..", "fakes", "acpAgent.js");

/** A prompter answering each field by its key (cancel for one it does not name). */
const byKey = (answers: Readonly<Record<string, StepResult>>) => new AnsweringPrompter((f) => answers[f.key]);
const answer = (value: ElicitationContentValue): StepResult => ({ kind: "answer", value });

let dir: string;
let posted: ToWebview[];
let started: () => AgentClient | undefined = () => undefined;

beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-fake-"));
  posted = [];
});
afterEach(async () => {
  await started()?.dispose();
  started = () => undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A controller on a fresh stand-in agent process. */
function chat(opts: { prompter?: FieldPrompter; env?: Record<string, string> } = {}): ChatController {
  const c = processChat({ binary: process.execPath, args: [AGENT], cwd: dir, env: { ...process.env, ...opts.env }, post: (m) => posted.push(m), prompter: opts.prompter });
  started = c.client;
  return c.controller;
}

/** The agent's answers so far, one string per message. */
function said(): string[] {
  const out: string[] = [];
  let open = false;
  for (const m of posted) {
    if (m.type === "update" && m.update.sessionUpdate === "agent_message_chunk" && m.update.content.type === "text") {
      out.push(open ? `${out.pop() ?? ""}${m.update.content.text}` : m.update.content.text);
      open = true;
    } else if (m.type === "update" || m.type === "userPrompt") {
      open = false;
    }
  }
  return out;
}

/** Resolves once the chat has been posted a message that matches. */
async function posts(match: (m: ToWebview) => boolean): Promise<void> {
  while (!posted.some(match)) await new Promise((r) => setTimeout(r, 5));
}

// The timeout only guards against a hang; every wait is on a message the chat was posted.
describe("the extension against a stand-in agent", { timeout: 60_000 }, () => {
  it("advertises notices, compaction and form elicitation, in the shape the SDK's agent side accepts", async () => {
    assert.equal(await chat().prompt("caps"), "end_turn");
    const caps = JSON.parse(said()[0] ?? "null") as { session?: unknown; elicitation?: unknown };
    assert.deepEqual(caps.session, { notices: {}, compaction: {} });
    assert.deepEqual(caps.elicitation, { form: {} });
  });

  it("answers ask_user's form with the user's choice and text (accept)", async () => {
    const prompter = byKey({ q1: answer("SQLite"), q2: answer("keep it small") });
    assert.equal(await chat({ prompter }).prompt("ask"), "end_turn");
    assert.deepEqual(prompter.asked, ["Which database should the service use?", "Anything else I should know?"]);
    assert.deepEqual(said().at(-1), `Answer: ${JSON.stringify({ action: "accept", content: { q1: "SQLite", q2: "keep it small" } })}`);
    assert.ok(!posted.some((m) => m.type === "notice"), "the question is tied to its call: the card shows it, no note repeats it");
  });

  it("declines when the user declines, and cancels (the turn too) when they escape", async () => {
    assert.equal(await chat({ prompter: byKey({ q1: { kind: "decline" } }) }).prompt("ask"), "end_turn");
    assert.equal(said().at(-1), 'Answer: {"action":"decline"}');
    await started()?.dispose();
    posted = [];
    assert.equal(await chat({ prompter: byKey({}) }).prompt("ask"), "cancelled");
    assert.equal(said().at(-1), 'Answer: {"action":"cancel"}');
  });

  it("shows a plan review's plan and implements it when the user says so", async () => {
    stub.warningAnswer = (message) => (message.startsWith("dsh has a plan") ? "Implement the plan" : undefined);
    assert.equal(await chat().prompt("plan"), "end_turn");
    assert.equal(said().at(-1), "Implementing the plan.");
    const preview = stub.executed.find((e) => e.command === "markdown.showPreview");
    assert.ok(preview, "the plan opened in the Markdown preview");
    assert.match((await vscode.workspace.openTextDocument(preview.args[0] as vscode.Uri)).getText(), /Add the v2 client/);
    assert.deepEqual(stub.warnings.map((w) => w.items), [["Implement the plan", "Keep planning", "Read the plan first"]]);
  });

  it("keeps planning when the user says so", async () => {
    stub.warningAnswer = () => "Keep planning";
    await chat().prompt("plan");
    assert.equal(said().at(-1), "I will revise the plan.");
  });

  it("steers a running turn with what the user sends during it", async () => {
    const c = chat();
    const turn = c.prompt("wait");
    await posts((m) => m.type === "update" && m.update.sessionUpdate === "agent_message_chunk");
    await c.handle({ type: "prompt", text: "use the v2 API instead" });
    assert.equal(await turn, "end_turn");
    assert.deepEqual(said(), ["Working…", "Steered: use the v2 API instead"]);
    assert.ok(posted.some((m) => m.type === "steer" && m.state === "sending"));
    assert.ok(posted.some((m) => m.type === "update" && m.update.sessionUpdate === "user_message_chunk"), "the agent showed it where it landed");
  });

  it("queues what is sent to be queued and runs it after the turn", async () => {
    const c = chat();
    const turn = c.prompt("wait");
    await posts((m) => m.type === "update" && m.update.sessionUpdate === "agent_message_chunk");
    await c.handle({ type: "prompt", text: "and then this", queue: true });
    assert.ok(posted.some((m) => m.type === "queue" && m.items.length === 1));
    await c.handle({ type: "prompt", text: "go on" });
    assert.equal(await turn, "end_turn");
    await posts((m) => m.type === "turn" && !m.running && posted.filter((x) => x.type === "turn" && !x.running).length === 2);
    assert.deepEqual(said(), ["Working…", "Steered: go on", "You said: and then this"]);
  });

  it("queues during a turn when the agent does not steer, and Stop drops the queue", async () => {
    const c = chat({ env: { FAKE_ACP_NO_STEERING: "1" } });
    const turn = c.prompt("wait");
    await posts((m) => m.type === "update" && m.update.sessionUpdate === "agent_message_chunk");
    await c.handle({ type: "prompt", text: "later" });
    assert.deepEqual(posted.flatMap((m) => (m.type === "queue" ? [m.items.map((i) => i.text)] : [])), [["later"]]);
    await c.stop();
    assert.equal(await turn, "cancelled");
    assert.deepEqual(said(), ["Working…"], "the queued prompt never went");
  });

  it("shows a notice as a VS Code warning and passes the compaction to the chat", async () => {
    await chat().prompt("notice");
    assert.deepEqual(stub.warnings.map((w) => w.message), ["dsh: MCP server docs failed to start — exit status 1"]);
    const kinds = posted.flatMap((m) => (m.type === "update" ? [m.update.sessionUpdate] : []));
    assert.deepEqual(kinds.filter((k) => k.startsWith("compaction") || k === "notice"), ["notice", "compaction_update", "compaction_summary_chunk", "compaction_update"]);
  });
});
