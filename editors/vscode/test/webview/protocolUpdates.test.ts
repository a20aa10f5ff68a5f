// Notices and compactions in the conversation (schema 1.25's stable updates).
import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { Conversation } from "../../src/webview/conversation";
import { installDom } from "./dom";

let window: Window;
let log: HTMLElement;
let chat: Conversation;

beforeEach(() => {
  window = installDom();
  log = document.createElement("main");
  document.body.append(log);
  chat = new Conversation(log, () => undefined);
});
afterEach(async () => {
  await window.happyDOM.close();
});

const q = (id: string) => [...log.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
/** The one element with data-testid id (the test fails without it). */
function one(id: string): HTMLElement {
  const [e] = q(id);
  assert.ok(e, `no ${id}`);
  return e;
}
const text = (s: string): SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: s } });

describe("notices in the chat", () => {
  const cases: { severity: string; want: string }[] = [
    { severity: "warning", want: "warning" },
    { severity: "error", want: "error" },
    { severity: "info", want: "info" },
    { severity: "_vendor_loud", want: "info" },
  ];
  for (const c of cases) {
    it(`notes a ${c.severity} notice as ${c.want}, title and description`, () => {
      chat.apply({ sessionUpdate: "notice", severity: c.severity, title: "MCP server docs failed to start", description: "exit status 1\nno such file" });
      const n = one("agent-notice");
      assert.equal(n.dataset["severity"], c.want);
      assert.equal(n.querySelector(".notice-title")?.textContent, "MCP server docs failed to start");
      assert.equal(n.querySelector(".notice-description")?.textContent, "exit status 1\nno such file");
    });
  }

  it("ends the streamed answer: text after a notice is a new message", () => {
    chat.apply(text("Before"));
    chat.apply({ sessionUpdate: "notice", severity: "info", title: "Retrying" });
    chat.apply(text("After"));
    assert.deepEqual(q("message-agent").map((e) => e.textContent.trim()), ["Before", "After"]);
    assert.equal(one("agent-notice").querySelector(".notice-description"), null, "no description, no line for it");
  });
});

describe("compaction in the chat", () => {
  it("shows a compaction running, its summary as it streams, then completed with the summary replaced", () => {
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" });
    const card = one("compaction");
    assert.equal(card.dataset["status"], "in_progress");
    assert.match(card.textContent, /Compacting the conversation…/);
    assert.ok(card.querySelector(".spinner"), "a spinner while it runs");
    assert.equal(one("compaction-summary").hidden, true, "no summary yet");
    chat.apply({ sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: { type: "text", text: "The user " } });
    chat.apply({ sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: { type: "text", text: "asked for **tests**." } });
    assert.equal(one("compaction-summary").hidden, false);
    assert.match(one("compaction-summary").innerHTML, /asked for <strong>tests<\/strong>/);
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "c1", status: "completed", summary: [{ type: "text", text: "Final summary." }] });
    assert.equal(q("compaction").length, 1, "the same card, patched in place");
    assert.equal(card.dataset["status"], "completed");
    assert.equal(one("compaction-title").textContent, "Conversation compacted");
    assert.equal(card.querySelector(".spinner"), null);
    assert.match(one("compaction-summary").textContent, /Final summary\./);
    assert.doesNotMatch(one("compaction-summary").textContent, /tests/);
  });

  it("keeps the summary when an update leaves it out, clears it on null", () => {
    chat.apply({ sessionUpdate: "compaction_summary_chunk", compactionId: "c2", content: { type: "text", text: "kept" } });
    assert.equal(one("compaction").dataset["status"], "in_progress", "a first chunk makes a running compaction");
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "c2", status: "completed" });
    assert.match(one("compaction-summary").textContent, /kept/);
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "c2", status: "completed", summary: null });
    assert.equal(one("compaction-summary").hidden, true);
  });

  const ends: { status: string; headline: string; error?: string }[] = [
    { status: "failed", headline: "Compaction failed", error: "the model refused" },
    { status: "cancelled", headline: "Compaction cancelled" },
    { status: "_paused", headline: "Compaction: _paused" },
  ];
  for (const e of ends) {
    it(`shows a compaction ${e.status}`, () => {
      chat.apply({ sessionUpdate: "compaction_update", compactionId: "c3", status: "in_progress" });
      chat.apply({ sessionUpdate: "compaction_update", compactionId: "c3", status: e.status, ...(e.error ? { error: e.error } : {}) });
      assert.equal(one("compaction-title").textContent, e.headline);
      const err = one("compaction-error");
      assert.equal(err.hidden, e.error === undefined);
      if (e.error) assert.equal(err.textContent, e.error);
    });
  }

  it("places a second compaction after what came between, and forgets them with the conversation", () => {
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "a", status: "completed" });
    chat.apply(text("between"));
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "b", status: "in_progress" });
    assert.deepEqual([...log.children].map((e) => (e as HTMLElement).dataset["testid"]), ["compaction", "message-agent", "compaction"]);
    chat.clear();
    chat.apply({ sessionUpdate: "compaction_update", compactionId: "a", status: "in_progress" });
    assert.equal(q("compaction").length, 1, "a new card after clear");
  });
});
