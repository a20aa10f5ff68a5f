import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import { ReplayCosts } from "../../src/session/replayCosts";
import { UsageStatus } from "../../src/status/usage";
import { chatController, FakeAgent } from "../fakes/agent";
import { stub } from "../stubs/control";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-replay-costs-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// A replay's updates, briefly: a user's words, an image, the agent's answer, a call, a usage with its cumulative cost, a title.
const said = (text: string): SessionUpdate => ({ sessionUpdate: "user_message_chunk", content: { type: "text", text } });
const image: SessionUpdate = { sessionUpdate: "user_message_chunk", content: { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" } };
const answer = (text: string): SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
const call: SessionUpdate = { sessionUpdate: "tool_call", toolCallId: "r1", title: "Read a.py", kind: "read", status: "completed" };
const usage = (amount: number, currency = "USD"): SessionUpdate => ({ sessionUpdate: "usage_update", used: 100, size: 1000, cost: { amount, currency } });
const unpriced: SessionUpdate = { sessionUpdate: "usage_update", used: 100, size: 1000 };
const title: SessionUpdate = { sessionUpdate: "session_info_update", title: "Carts" };
const steered = (text: string): SessionUpdate => ({ sessionUpdate: "user_message_chunk", content: { type: "text", text }, _meta: { "dsh-acp": { steered: true } } });

/** What the view is shown of a replay: each user message's first words, and each cost line, in order. */
function lines(updates: readonly SessionUpdate[]): string[] {
  const costs = new ReplayCosts();
  const out: string[] = [];
  let inUser = false;
  for (const u of updates) {
    const line = costs.update(u);
    if (line !== undefined) out.push(`cost ${line}`);
    if (u.sessionUpdate === "user_message_chunk" && !inUser && u.content.type === "text") out.push(`user ${u.content.text}`);
    inUser = u.sessionUpdate === "user_message_chunk";
  }
  const last = costs.end();
  if (last !== undefined) out.push(`cost ${last}`);
  return out;
}

describe("a replayed session's cost lines", () => {
  const cases: { name: string; updates: SessionUpdate[]; want: string[] }[] = [
    {
      name: "each turn's own, at its end: what the session's cost rose by across it",
      updates: [said("one"), answer("a"), usage(0.01), call, answer("b"), usage(0.0125), said("two"), answer("c"), usage(0.02), title],
      want: ["user one", "cost $0.0125", "user two", "cost $0.0075"],
    },
    {
      name: "none for a turn without a priced request (a slash command), nor for one whose requests are unpriced",
      updates: [said("one"), answer("a"), usage(0.5), said("/undo"), answer("Restored a.py"), said("three"), answer("b"), unpriced, said("four"), answer("c"), usage(0.75)],
      want: ["user one", "cost $0.5000", "user /undo", "user three", "user four", "cost $0.2500"],
    },
    {
      name: "a free request's line says so, as live",
      updates: [said("one"), answer("a"), usage(0.5), said("two"), answer("free"), usage(0.5)],
      want: ["user one", "cost $0.5000", "user two", "cost $0.0000"],
    },
    {
      name: "a message's chunks (its words, its images, a title between) are one turn",
      updates: [said("one"), title, image, image, answer("two cats"), usage(0.1)],
      want: ["user one", "cost $0.1000"],
    },
    {
      name: "in another currency, and none across a change of currency (the totals cannot be compared)",
      updates: [said("one"), answer("a"), usage(1, "EUR"), said("two"), answer("b"), usage(0.2, "USD"), said("three"), answer("c"), usage(0.5, "USD")],
      want: ["user one", "cost EUR 1.0000", "user two", "user three", "cost $0.3000"],
    },
    {
      name: "a turn a /rewind took back counts in the turn shown before it, or in the first",
      updates: [usage(0.1), said("one"), answer("a"), usage(0.3), usage(0.7), said("two"), usage(0.8)],
      want: ["user one", "cost $0.7000", "user two", "cost $0.1000"],
    },
    {
      name: "a message steered into a turn is in that turn: its line covers it",
      updates: [said("one"), answer("a"), usage(0.1), steered("use v2"), answer("b"), usage(0.3), said("two"), answer("c"), usage(0.4)],
      want: ["user one", "user use v2", "cost $0.3000", "user two", "cost $0.1000"],
    },
    { name: "nothing without a turn", updates: [usage(0.1), title], want: [] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(lines(c.updates), c.want));

  it("starts afresh for the next replay", () => {
    const costs = new ReplayCosts();
    for (const u of [said("one"), usage(0.5)]) costs.update(u);
    costs.end();
    for (const u of [said("again"), usage(0.1)]) costs.update(u);
    assert.equal(costs.end(), "$0.1000");
  });
});

describe("a loaded session", () => {
  it("shows each replayed turn's cost at its end, as live, and the session's total in the status bar", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const status = new UsageStatus();
    const c = chatController(agent, posted, dir, { usage: status });
    agent.replay = async (sessionId) => {
      for (const u of [said("one"), image, answer("a cat"), usage(0.01), said("/undo"), answer("Restored."), said("two"), answer("b"), usage(0.0123)]) await c.sessionUpdate({ sessionId, update: u });
    };
    await c.loadSession("s0");
    const seen = posted.flatMap((m) => {
      if (m.type === "turnCost") return [`cost ${m.text}`];
      if (m.type === "update" && m.update.sessionUpdate === "user_message_chunk") return [m.update.content.type === "text" ? `user ${m.update.content.text}` : `user ${m.update.content.type}`];
      return [];
    });
    assert.deepEqual(seen, ["user one", "user image", "cost $0.0100", "user /undo", "user two", "cost $0.0023"]);
    assert.match(status.text, /\$0\.0123$/);
    posted.length = 0;
    await c.prompt("three");
    assert.deepEqual(posted.filter((m) => m.type === "turnCost"), [], "a live turn after the replay that cost nothing has no line");
  });

  it("shows no line for a replay the load cut short", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = chatController(agent, posted, dir);
    agent.replay = async (sessionId) => {
      for (const u of [said("one"), usage(0.01)]) await c.sessionUpdate({ sessionId, update: u });
      throw new Error("the log could not be read");
    };
    await assert.rejects(c.loadSession("s0"));
    assert.deepEqual(posted.filter((m) => m.type === "turnCost"), []);
  });
});
