import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { AgentUpdate } from "../../src/client/unstable";
import { mountConversation, type MountedConversation } from "./conversationFixture";

let m: MountedConversation;
beforeEach(() => (m = mountConversation()));
afterEach(() => m.window.happyDOM.close());

const plans = () => [...m.log.querySelectorAll<HTMLElement>('[data-testid="plan"]')];
const entries = (plan: HTMLElement | undefined) => [...(plan?.querySelectorAll<HTMLElement>(".plan-entry") ?? [])].map((e) => [e.textContent, e.dataset["status"]]);
const todos = (...items: [string, "pending" | "in_progress" | "completed"][]): AgentUpdate => ({
  sessionUpdate: "plan_update",
  plan: { type: "items", planId: "todos", entries: items.map(([content, status]) => ({ content, status, priority: "medium" })) },
});
const click = (e: Element | null | undefined) => e?.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));

describe("plan operations in the conversation", () => {
  it("draws a plan's items by its id, redrawn in place as it changes within the turn", () => {
    m.chat.user("do it");
    m.chat.apply(todos(["read", "in_progress"], ["write", "pending"]));
    m.chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Reading." } });
    m.chat.apply(todos(["read", "completed"], ["write", "in_progress"]));
    assert.equal(plans().length, 1);
    assert.equal(plans()[0]?.dataset["planId"], "todos");
    assert.deepEqual(entries(plans()[0]), [["read", "completed"], ["write", "in_progress"]]);
  });

  it("renders a Markdown plan, and a plan that is a file as a link the extension opens", () => {
    m.chat.apply({ sessionUpdate: "plan_update", plan: { type: "markdown", planId: "plan", content: "# Plan\n\n1. Add the v2 client\n2. Run the tests\n" } });
    const markdown = plans()[0]?.querySelector('[data-testid="plan-markdown"]');
    assert.deepEqual([...(markdown?.querySelectorAll("li") ?? [])].map((li) => li.textContent), ["Add the v2 client", "Run the tests"]);
    m.chat.apply({ sessionUpdate: "plan_update", plan: { type: "file", planId: "spec", uri: "file:///ws/PLAN.md" } });
    click(plans()[1]?.querySelector('[data-testid="plan-file"]'));
    assert.deepEqual(m.sent.at(-1), { type: "openLink", href: "file:///ws/PLAN.md" });
  });

  it("marks a removed plan cleared, even from an earlier turn, and shows a later turn's plan anew", () => {
    m.chat.user("one");
    m.chat.apply(todos(["read", "completed"]));
    m.chat.user("two");
    m.chat.apply(todos(["write", "pending"]));
    assert.deepEqual(plans().map((p) => entries(p)), [[["read", "completed"]], [["write", "pending"]]], "the earlier turn's plan stays as it was");
    m.chat.apply({ sessionUpdate: "plan_removed", planId: "todos" });
    assert.deepEqual(plans().map((p) => p.dataset["removed"]), [undefined, "true"]);
    assert.equal(plans()[1]?.querySelector(".plan-title")?.textContent, "Plan (cleared)");
    m.chat.user("three");
    m.chat.apply({ sessionUpdate: "plan_removed", planId: "unknown" });
    m.chat.apply(todos(["again", "pending"]));
    assert.equal(plans().length, 3);
  });

  it("keeps showing the legacy plan, one per turn", () => {
    m.chat.apply({ sessionUpdate: "plan", entries: [{ content: "a", status: "pending", priority: "medium" }] });
    m.chat.apply({ sessionUpdate: "plan", entries: [{ content: "a", status: "completed", priority: "medium" }] });
    assert.deepEqual(plans().map((p) => entries(p)), [[["a", "completed"]]]);
  });

  it("shows no plan of a subagent's", () => {
    m.chat.apply({ sessionUpdate: "subagent_update", sessionId: "c1", title: "t", state: { state: "running" } });
    m.chat.apply(todos(["child's", "pending"]), "c1");
    assert.equal(plans().length, 0);
  });
});
