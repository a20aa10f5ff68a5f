import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import { initializeRequest } from "../../src/client/capabilities";
import { Lineage } from "../../src/client/lineage";
import { agentNotification, type AgentNotification, type AgentUpdate, type WireNotification } from "../../src/client/unstable";
import { Chats } from "../../src/session/chats";
import { childCallId } from "../../src/session/childCalls";
import { chatController, chatIn, FakeAgent } from "../fakes/agent";
import { stub } from "../stubs/control";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-subagents-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One agent for every chat: each session/new gives the next id. */
class Agent extends FakeAgent {
  private n = 0;
  override async newSession(): Promise<{ sessionId: string; configOptions?: SessionConfigOption[] | null }> {
    return { sessionId: `s${++this.n}` };
  }
}

/** Two chats on one agent, showing s1 and s2. */
async function twoChats(): Promise<{ chats: Chats; one: ReturnType<typeof chatIn>; two: ReturnType<typeof chatIn> }> {
  const chats = new Chats();
  const agent = new Agent();
  const one = chatIn(agent, chats, dir);
  const two = chatIn(agent, chats, dir);
  await one.c.newSession();
  await two.c.newSession();
  return { chats, one, two };
}

const announce = (parent: string, child: string, state: "running" | "idle" = "running", stopReason?: string): AgentNotification => ({
  sessionId: parent,
  update: {
    sessionUpdate: "subagent_update",
    sessionId: child,
    title: "find main",
    description: "explore subagent",
    capabilities: { cancel: {} },
    state: state === "running" ? { state } : { state, ...(stopReason === undefined ? {} : { stopReason }) },
  },
});
const say = (sessionId: string, text: string): AgentNotification => ({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
const shown = (posted: ToWebview[]) => posted.flatMap((m) => (m.type === "update" ? [{ update: m.update, child: m.child }] : []));


describe("subagents: the client side", () => {
  it("advertises the unstable subagents and plan capabilities as the schema shapes them", () => {
    const caps = initializeRequest("1.0.0").clientCapabilities;
    assert.deepEqual([caps?.subagents, caps?.plan], [{}, {}]);
  });

  it("hands on stable updates and the unstable ones it advertises, and drops those it does not", () => {
    const wire: WireNotification[] = [
      { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } } },
      { sessionId: "s1", update: { sessionUpdate: "subagent_update", sessionId: "c1", title: "t" } },
      { sessionId: "s1", update: { sessionUpdate: "plan_update", plan: { type: "markdown", planId: "plan", content: "# Plan" } } },
      { sessionId: "s1", update: { sessionUpdate: "plan_removed", planId: "todos" } },
      { sessionId: "s1", update: { sessionUpdate: "session_message_chunk", messageId: "m1", content: { type: "text", text: "to a child" } } },
    ];
    assert.deepEqual(
      wire.map((n) => agentNotification(n)?.update.sessionUpdate),
      ["agent_message_chunk", "subagent_update", "plan_update", "plan_removed", undefined],
    );
  });

  const lineages: { name: string; announce: [string, string][]; root: string; want: string }[] = [
    { name: "a session no one announced is its own root", announce: [], root: "s1", want: "s1" },
    { name: "a child's root is its parent", announce: [["s1", "c1"]], root: "c1", want: "s1" },
    { name: "a grandchild's root is the outermost session", announce: [["s1", "c1"], ["c1", "g1"]], root: "g1", want: "s1" },
    { name: "a later announcement does not move a child", announce: [["s1", "c1"], ["s2", "c1"]], root: "c1", want: "s1" },
    { name: "a loop of announcements ends", announce: [["a", "b"], ["b", "a"]], root: "a", want: "b" },
  ];
  for (const tc of lineages) {
    it(`lineage: ${tc.name}`, () => {
      const l = new Lineage();
      for (const [p, c] of tc.announce) l.announce(p, c);
      assert.equal(l.root(tc.root), tc.want);
    });
  }
});

describe("subagents in the chat", () => {
  it("routes a child's updates, approvals, reads and writes to the chat showing its parent, its calls under their own ids", async () => {
    const { chats, one, two } = await twoChats();
    chats.activate(two.c);

    await chats.sessionUpdate(say("c1", "before its announcement"));
    await chats.sessionUpdate(announce("s1", "c1"));
    await chats.sessionUpdate(say("c1", "looking"));
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "old\n");
    await chats.writeTextFile({ sessionId: "c1", path: a, content: "new\n" });
    await chats.sessionUpdate({ sessionId: "c1", update: { sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit a.txt", kind: "edit", status: "completed", content: [{ type: "diff", path: a, oldText: "old\n", newText: "new\n" }] } });
    await chats.sessionUpdate({ sessionId: "c1", update: { sessionUpdate: "usage_update", used: 5, size: 100, cost: { amount: 9, currency: "USD" } } });

    assert.deepEqual(shown(two.posted), [], "the other chat sees nothing of the child");
    assert.deepEqual(
      shown(one.posted).map((u) => [u.update.sessionUpdate, u.child]),
      [["subagent_update", undefined], ["agent_message_chunk", "c1"], ["tool_call", "c1"], ["usage_update", "c1"]],
      "an update of a child not yet announced is not shown; the announcement is the parent's",
    );
    const call = shown(one.posted).find((u) => u.update.sessionUpdate === "tool_call")?.update;
    assert.equal(call?.sessionUpdate === "tool_call" ? call.toolCallId : "", childCallId("c1", "e1"));
    assert.deepEqual(one.review.files().map((f) => f.path), [a], "the child's edit is under review in the parent's chat");
    assert.deepEqual(two.review.files(), [], "and only there");
    assert.equal(one.usage.text, "", "a child's usage is counted in the parent's, not shown on its own");

    stub.warningAnswer = () => new Promise<undefined>(() => undefined); // the modal stays open: the card answers
    const asked = chats.requestPermission({ sessionId: "c1", toolCall: { toolCallId: "b1", title: "Run" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] }, new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    const question = one.posted.find((m) => m.type === "permission");
    assert.ok(question?.type === "permission", "the parent's chat asks, though the other is active");
    assert.equal(question.toolCallId, childCallId("c1", "b1"), "on the child's card");
    await one.c.handle({ type: "permission", requestId: question.requestId, optionId: "ok" });
    assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "ok" } });

    assert.equal(chats.showing("c1"), one.c);
    assert.equal((await chats.readTextFile({ sessionId: "c1", path: a })).content, "new\n");
  });

  it("asks a child's elicitation form in the chat showing its parent", async () => {
    const { chats, one, two } = await twoChats();
    await chats.sessionUpdate(announce("s1", "c1"));
    stub.onQuickInput = (input) => input.hide();
    const form = { mode: "form" as const, sessionId: "c1", message: "Which database?", requestedSchema: { type: "object" as const, properties: { q1: { type: "string" as const, title: "Which database?" } } } };
    assert.equal((await chats.createElicitation(form, new AbortController().signal)).action, "cancel");
    const asked = (p: ToWebview[]) => p.some((m) => m.type === "notice" && m.text.includes("Which database?"));
    assert.deepEqual([asked(one.posted), asked(two.posted)], [true, false]);
  });

  it("stops one subagent with session/cancel for it alone, its open questions cancelled; the parent's go on", async () => {
    const agent = new Agent();
    const posted: ToWebview[] = [];
    const c = chatController(agent, posted, dir);
    await c.newSession();
    await c.sessionUpdate(announce("s1", "c1"));
    stub.warningAnswer = () => new Promise<undefined>(() => undefined);
    const child = c.requestPermission({ sessionId: "c1", toolCall: { toolCallId: "b1", title: "Run" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] }, new AbortController().signal);
    const parent = c.requestPermission({ sessionId: "s1", toolCall: { toolCallId: "b2", title: "Run" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] }, new AbortController().signal);
    await c.handle({ type: "stopSubagent", sessionId: "c1" });
    await c.handle({ type: "stopSubagent", sessionId: "s9" });
    assert.deepEqual(agent.cancelled, ["c1"], "only a child of the chat's session is cancelled, and nothing else");
    assert.deepEqual(await child, { outcome: { outcome: "cancelled" } });
    const open = posted.filter((m) => m.type === "permission").at(-1);
    assert.ok(open?.type === "permission" && open.toolCallId === "b2");
    await c.handle({ type: "permission", requestId: open.requestId, optionId: "ok" });
    assert.deepEqual(await parent, { outcome: { outcome: "selected", optionId: "ok" } });
  });

  it("replays a stored session's children the same way, and forgets them with the session", async () => {
    const agent = new Agent();
    const posted: ToWebview[] = [];
    const c = chatController(agent, posted, dir);
    agent.replay = async (sessionId) => {
      for (const n of [announce(sessionId, "c7"), say("c7", "found it"), announce(sessionId, "c7", "idle", "end_turn")]) await c.sessionUpdate(n);
    };
    await c.loadSession("s0");
    const seen: [AgentUpdate["sessionUpdate"], string | undefined][] = shown(posted).map((u) => [u.update.sessionUpdate, u.child]);
    assert.deepEqual(seen, [["subagent_update", undefined], ["agent_message_chunk", "c7"], ["subagent_update", undefined]]);
    assert.equal(c.shows("c7"), true);
    await c.newSession();
    assert.equal(c.shows("c7"), false, "a new session has no children");
  });
});
