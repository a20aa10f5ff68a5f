import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { SignInResult } from "../../src/auth/signIn";
import type { ToWebview } from "../../src/chat/messages";
import { rejectionNote, ReviewList } from "../../src/review/reviewList";
import { restoreFile } from "../../src/session/files";
import { MAX_RESTORE_PROMPTS, restorePoint, rewindCount, undoCount } from "../../src/session/restore";
import { chatController, FakeAgent, reviewing } from "../fakes/agent";
import { stub } from "../stubs/control";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-restore-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const texts = (agent: FakeAgent): string[] => agent.prompts.map((p) => p.map((b) => (b.type === "text" ? b.text : "")).join(""));

describe("restore to here", () => {
  const cases: { prompts: string[]; want: number }[] = [
    { prompts: ["fix it"], want: 1 },
    { prompts: ["fix it", "and test", "/init"], want: 3 },
    { prompts: ["fix it", "/compact", "/help", "/permissions"], want: 1 },
    { prompts: ["fix it", "/undo", "/undo", "again"], want: 1 },
    { prompts: ["/undo", "one"], want: 1 },
    { prompts: ["a", "b", "/undo 1"], want: 1 },
  ];
  for (const c of cases) it(`takes ${c.want} /undo over ${JSON.stringify(c.prompts)}`, () => assert.equal(undoCount(c.prompts), c.want));

  const rewinds: { prompts: string[]; want: number }[] = [
    { prompts: ["fix it", "and test", "/init"], want: 3 },
    { prompts: ["fix it", "/compact", "/help", "/permissions"], want: 1 },
    { prompts: ["fix it", "/undo", "again"], want: 2 },
    { prompts: ["fix it", "/rewind", "again"], want: 1 },
    { prompts: ["/rewind", "one"], want: 1 },
  ];
  for (const c of rewinds) it(`takes ${c.want} /rewind over ${JSON.stringify(c.prompts)}`, () => assert.equal(rewindCount(c.prompts), c.want));

  it("reads the view's restore point defensively", () => {
    assert.deepEqual(restorePoint({ index: 2, texts: ["a"] }), { index: 2, texts: ["a"] });
    const tooMany = { index: 0, texts: Array.from({ length: MAX_RESTORE_PROMPTS + 1 }, () => "x") };
    for (const bad of [null, "x", { index: -1, texts: ["a"] }, { index: 1.5, texts: ["a"] }, { index: 0, texts: [] }, { index: 0, texts: [1] }, tooMany]) assert.equal(restorePoint(bad), undefined);
  });

  it("drops the message and what follows from the view, then undoes each model turn since with /undo, without the editor's note in front", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const review = new ReviewList(restoreFile);
    const c = reviewing(agent, review, posted, dir);
    await c.prompt("write a.txt");
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "by the agent");
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "w1", title: "Write", kind: "edit", status: "completed", content: [{ type: "diff", path: a, oldText: null, newText: "by the agent" }] } });
    await c.handle({ type: "review", action: "reject", path: a });
    await c.prompt("then this");
    agent.prompts.length = 0;
    await c.handle({ type: "restore", index: 0, texts: ["write a.txt", "/compact", "then this"] });
    assert.deepEqual(texts(agent), ["/undo", "/undo"]);
    assert.ok(posted.some((m) => m.type === "truncate" && m.index === 0));
    assert.ok(posted.some((m) => m.type === "notice" && m.text.includes("undoing 2 turns with /undo")));
    await c.prompt("next");
    assert.deepEqual(texts(agent).at(-1), "next", "the note went before the prompt after the rejection already");
  });

  it("goes back with /rewind once the agent offers it, so the agent forgets the turns too", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    await c.prompt("first");
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "undo", description: "Undo" }, { name: "rewind", description: "Rewind" }] } });
    await c.prompt("/undo");
    await c.prompt("second");
    agent.prompts.length = 0;
    await c.handle({ type: "restore", index: 0, texts: ["first", "/undo", "second"] });
    assert.deepEqual(texts(agent), ["/rewind", "/rewind"], "the undone turn is still in the conversation: it is taken back too");
    assert.ok(posted.some((m) => m.type === "notice" && m.text.includes("taking back 2 turns with /rewind")));
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "undo", description: "Undo" }] } });
    agent.prompts.length = 0;
    await c.handle({ type: "restore", index: 0, texts: ["first"] });
    assert.deepEqual(texts(agent), ["/undo"], "an agent that stops offering /rewind is restored with /undo");
  });

  it("sends the restore's commands quietly: no bubble of a command the user never typed, no cost line; the agent's replies show", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    let spent = 0;
    agent.prompt = async (sessionId, p) => {
      agent.prompts.push(p);
      spent += 0.01;
      await c.sessionUpdate({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `reply ${agent.prompts.length}` } } });
      await c.sessionUpdate({ sessionId, update: { sessionUpdate: "usage_update", used: 10, size: 100, cost: { amount: spent, currency: "USD" } } });
      return { stopReason: "end_turn" };
    };
    await c.prompt("fix it");
    await c.prompt("and test");
    const shown = (): string[] => posted.flatMap((m) => {
      if (m.type === "userPrompt") return [`user: ${m.text}`];
      if (m.type === "turnCost") return ["cost"];
      if (m.type === "update" && m.update.sessionUpdate === "agent_message_chunk" && m.update.content.type === "text") return [`agent: ${m.update.content.text}`];
      return [];
    });
    assert.deepEqual(shown(), ["user: fix it", "agent: reply 1", "cost", "user: and test", "agent: reply 2", "cost"], "the user's own prompts show with their cost");
    posted.length = 0;
    assert.equal(await c.restoreTo({ index: 0, texts: ["fix it", "and test"] }), true);
    assert.deepEqual(texts(agent).slice(2), ["/undo", "/undo"]);
    assert.deepEqual(shown(), ["agent: reply 3", "agent: reply 4"]);
  });

  it("does not keep a restore's command refused for want of an API key (it would be sent once the key is set)", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const ways: SignInResult[] = ["dismissed", "terminal"];
    const c = chatController(agent, posted, dir, { authRequired: async () => ways.shift() ?? "dismissed" });
    await c.prompt("fix it");
    agent.prompt = async (_s, p) => {
      agent.prompts.push(p);
      throw Object.assign(new Error("Authentication required"), { code: -32000 });
    };
    posted.length = 0;
    assert.equal(await c.restoreTo({ index: 0, texts: ["fix it"] }), false);
    assert.ok(!posted.some((m) => m.type === "userPrompt"));
    assert.ok(posted.some((m) => m.type === "notice" && m.action === "signIn"));
    await c.signIn();
    assert.deepEqual(texts(agent), ["fix it", "/undo"], "the signed-in agent is not sent the command again");
  });

  it("keeps the rejection note for the first prompt that is not a slash command", async () => {
    const agent = new FakeAgent();
    const review = new ReviewList(restoreFile);
    const c = reviewing(agent, review, [], dir);
    await c.prompt("write b.txt");
    const b = path.join(dir, "b.txt");
    writeFileSync(b, "new");
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "w1", title: "Write", kind: "edit", status: "completed", content: [{ type: "diff", path: b, oldText: null, newText: "new" }] } });
    await c.handle({ type: "review", action: "reject", path: b });
    await c.prompt("/undo");
    await c.prompt("go on");
    assert.deepEqual(texts(agent).slice(1), ["/undo", `go on\n\n${rejectionNote([b])}`]);
  });

  it("edit and resend undoes the last turn, then sends the new text", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    await c.prompt("make it blue");
    await c.handle({ type: "prompt", text: "make it green", restore: { index: 0, texts: ["make it blue"] } });
    assert.deepEqual(texts(agent), ["make it blue", "/undo", "make it green"]);
    assert.ok(posted.some((m) => m.type === "truncate" && m.index === 0));
  });

  it("does nothing while a turn runs", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    let release: () => void = () => undefined;
    agent.prompt = async (_s, p) => {
      agent.prompts.push(p);
      await new Promise<void>((r) => (release = r));
      return { stopReason: "end_turn" };
    };
    const running = c.prompt("slow");
    await new Promise((r) => setImmediate(r));
    assert.equal(await c.restoreTo({ index: 0, texts: ["slow"] }), false);
    await c.handle({ type: "prompt", text: "edited while running", restore: { index: 0, texts: ["slow"] } });
    release();
    await running;
    assert.deepEqual(texts(agent), ["slow"]);
    assert.ok(posted.some((m) => m.type === "notice" && m.text.endsWith("edited while running")), "the edited text is shown, not lost");
  });
});
