import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { AgentUpdate, SubagentWorkState } from "../../src/client/unstable";
import { childCallId } from "../../src/session/childCalls";
import { shownState } from "../../src/webview/subagent";
import { mountConversation, type MountedConversation } from "./conversationFixture";

let m: MountedConversation;
beforeEach(() => (m = mountConversation()));
afterEach(() => m.window.happyDOM.close());

const q = (id: string, root: ParentNode = m.log) => [...root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const click = (e: Element | undefined) => e?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));

const announce = (child: string, state: SubagentWorkState, title?: string): AgentUpdate => ({
  sessionUpdate: "subagent_update",
  sessionId: child,
  ...(title === undefined ? {} : { title, description: "explore subagent", capabilities: { cancel: {} } }),
  state,
});
const task = (child?: string): AgentUpdate =>
  child === undefined
    ? { sessionUpdate: "tool_call", toolCallId: "t1", title: "explore: find main", kind: "think", status: "in_progress" }
    : { sessionUpdate: "tool_call_update", toolCallId: "t1", _meta: { subagent_session_id: child } };

/** A task whose child c1 says something, thinks, greps and edits. */
function childWorks(): void {
  m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Let me ask a subagent." } });
  m.chat.apply(task());
  m.chat.apply(announce("c1", { state: "running" }, "find main"));
  m.chat.apply(task("c1"));
  m.chat.apply({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "grep for it" } }, "c1");
  m.chat.apply({ sessionUpdate: "tool_call", toolCallId: childCallId("c1", "g1"), title: "grep func main", kind: "search", status: "completed" }, "c1");
  m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "It is in " } }, "c1");
  m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "main.go." } }, "c1");
  m.chat.apply({
    sessionUpdate: "tool_call",
    toolCallId: childCallId("c1", "e1"),
    title: "Edit /ws/main.go",
    kind: "edit",
    status: "pending",
    content: [{ type: "diff", path: "/ws/main.go", oldText: "a\n", newText: "b\n" }],
  }, "c1");
}

describe("subagents in the conversation", () => {
  it("shows a child as a block in the task's card, live: its title, state, answer, thoughts and cards", () => {
    childWorks();
    const [card] = q("tool-card").filter((c) => c.dataset["toolCallId"] === "t1");
    const [block] = q("subagent");
    assert.ok(card && block);
    assert.equal(block.parentElement, card, "the block is inside the task's card");
    assert.equal(q("subagent-title", block)[0]?.textContent, "find main");
    assert.equal(block.dataset["state"], "running");
    assert.equal((block as HTMLDetailsElement).open, true, "open while it works");
    assert.equal(q("thought", block).length, 1);
    assert.deepEqual(q("message-agent", block).map((m) => m.textContent.trim()), ["It is in main.go."], "the child's chunks are one answer");
    assert.deepEqual(q("message-agent").map((m) => m.textContent.trim()), ["Let me ask a subagent.", "It is in main.go."], "the parent's answer stays its own");
    assert.deepEqual(q("tool-card", block).map((c) => c.dataset["toolCallId"]), [childCallId("c1", "g1"), childCallId("c1", "e1")]);
    click(q("tool-card-diff-button", block)[0]);
    assert.deepEqual(m.sent.at(-1), { type: "openDiff", toolCallId: childCallId("c1", "e1"), path: "/ws/main.go" }, "a child's diff opens for review like any other");
  });

  it("asks a child's approval on its card in the block", () => {
    childWorks();
    m.chat.ask("p1", childCallId("c1", "e1"), "Edit main.go", [{ optionId: "ok", name: "Allow", kind: "allow_once" }]);
    const [block] = q("subagent");
    assert.ok(block);
    click(q("permission-option", block)[0]);
    assert.deepEqual(m.sent.at(-1), { type: "permission", requestId: "p1", optionId: "ok" });
    m.chat.answered("p1");
    assert.equal(q("permission-option").length, 0);
  });

  it("stops the child alone with its Stop, and folds the block with its end state", () => {
    childWorks();
    const [block] = q("subagent");
    assert.ok(block);
    const [stop] = q("subagent-stop", block);
    assert.ok(stop && !stop.hidden, "a cancellable running child offers Stop");
    click(stop);
    assert.deepEqual(m.sent.at(-1), { type: "stopSubagent", sessionId: "c1" });
    assert.equal((block as HTMLDetailsElement).open, true, "Stop is not a toggle of the block");
    m.chat.apply(announce("c1", { state: "idle", stopReason: "cancelled" }));
    assert.equal(block.dataset["state"], "cancelled");
    assert.equal(q("subagent-state", block)[0]?.textContent, "cancelled");
    assert.equal(stop.hidden, true, "nothing to stop once it ended");
    assert.equal((block as HTMLDetailsElement).open, false, "folded once it ended");
    assert.equal(q("subagent-title", block)[0]?.textContent, "find main", "an update without a title keeps it");
  });

  it("offers no Stop for a child the agent does not let be cancelled, and ignores a child never announced", () => {
    m.chat.apply({ sessionUpdate: "subagent_update", sessionId: "c2", title: "fixed", state: { state: "running" } });
    assert.equal(q("subagent-stop")[0]?.hidden, true);
    m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "ghost" } }, "c9");
    assert.equal(q("message-agent").length, 0);
  });

  it("shows a replayed child folded, done, inside its task's card", () => {
    m.chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "Find main." } });
    m.chat.apply(task());
    m.chat.apply(announce("c1", { state: "running" }, "find main"));
    m.chat.apply(task("c1"));
    m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "main.go:3" } }, "c1");
    m.chat.apply(announce("c1", { state: "idle", stopReason: "end_turn" }));
    m.chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
    const [block] = q("subagent");
    assert.ok(block);
    assert.equal(block.parentElement?.dataset["toolCallId"], "t1");
    assert.deepEqual([block.dataset["state"], (block as HTMLDetailsElement).open], ["done", false]);
    assert.equal(q("message-agent", block)[0]?.textContent.trim(), "main.go:3");
  });

  it("nests a child's own child in its block", () => {
    childWorks();
    m.chat.apply(announce("g1", { state: "running" }, "deeper"), "c1");
    m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "grandchild" } }, "g1");
    const [outer, inner] = q("subagent");
    assert.ok(outer && inner && outer.contains(inner));
    assert.equal(q("message-agent", inner)[0]?.textContent.trim(), "grandchild");
  });

  it("forgets the blocks with the conversation", () => {
    childWorks();
    m.chat.clear();
    m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "after" } }, "c1");
    assert.equal(q("subagent").length, 0);
    assert.equal(q("message-agent").length, 0);
  });
});

describe("a subagent's state", () => {
  const cases: { state: SubagentWorkState; want: string | undefined }[] = [
    { state: { state: "running" }, want: "running" },
    { state: { state: "requires_action" }, want: "waiting" },
    { state: { state: "idle" }, want: "done" },
    { state: { state: "idle", stopReason: "end_turn" }, want: "done" },
    { state: { state: "idle", stopReason: "cancelled" }, want: "cancelled" },
    { state: { state: "idle", stopReason: "error" }, want: "failed" },
    { state: { state: "idle", stopReason: "max_turn_requests" }, want: "failed" },
    { state: { state: "unknown" }, want: undefined },
  ];
  for (const tc of cases) {
    it(`${JSON.stringify(tc.state)} shows as ${String(tc.want)}`, () => {
      assert.equal(shownState(tc.state), tc.want);
    });
  }
});
