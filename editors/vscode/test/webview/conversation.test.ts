import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { PermissionOptionKind, SessionUpdate, ToolKind } from "@agentclientprotocol/sdk";
import type { Window } from "happy-dom";
import { rejectionNote, undoneNote } from "../../src/chat/editorNote";
import type { FromWebview } from "../../src/chat/messages";
import { Conversation } from "../../src/webview/conversation";
import { mountConversation } from "./conversationFixture";

let window: Window;
let log: HTMLElement;
let sent: FromWebview[];
let chat: Conversation;

beforeEach(() => {
  ({ window, log, sent, chat } = mountConversation());
});
afterEach(async () => {
  await window.happyDOM.close();
});

const q = (id: string) => [...log.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const click = (e: Element | undefined) => e?.dispatchEvent(new MouseEvent("click", { bubbles: true }));

describe("the conversation view", () => {
  it("greets an empty view with a hint and the sign-in, gone once something is said", () => {
    assert.equal(q("welcome").length, 1);
    click(q("welcome-sign-in")[0]);
    assert.deepEqual(sent, [{ type: "signIn" }]);
    chat.user("hello");
    assert.equal(q("welcome").length, 0);
    chat.clear();
    assert.equal(q("welcome").length, 1, "a new conversation greets again");
  });

  it("tells in the welcome whether the API key is stored, and offers to change it then", () => {
    assert.equal(q("welcome-key-stored").length, 0);
    assert.equal(q("welcome-sign-in")[0]?.textContent, "Set API key");
    assert.doesNotMatch(q("welcome")[0]?.textContent ?? "", /environment|login|DSH_|dsh-acp/, "it speaks of the key, not of variables or commands");
    chat.setKeyStored(true);
    assert.equal(q("welcome").length, 1);
    assert.match(q("welcome-key-stored")[0]?.textContent ?? "", /Your API key is set/);
    assert.equal(q("welcome-sign-in")[0]?.textContent, "Change API key");
    chat.clear();
    assert.equal(q("welcome-key-stored").length, 1, "a new conversation still knows the key is stored");
    chat.setKeyStored(false);
    assert.equal(q("welcome-key-stored").length, 0);
    assert.equal(q("welcome-sign-in")[0]?.textContent, "Set API key");
  });

  it("offers the sign-in on a notice that needs the key", () => {
    chat.notice("error", "dsh needs your model provider's API key.", "signIn");
    click(q("notice-sign-in")[0]);
    assert.deepEqual(sent, [{ type: "signIn" }]);
  });

  it("shows thoughts open while they stream and folds them when the answer starts", () => {
    chat.apply({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me think" } });
    const thought = q("thought")[0] as HTMLDetailsElement;
    assert.equal(thought.open, true);
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Answer" } });
    assert.equal(thought.open, false);
  });

  it("replays a rejection note as a mark on the rejected edit, not as the user's words", () => {
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "edit a" } });
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit /ws/a.txt", kind: "edit", status: "completed", content: [{ type: "diff", path: "/ws/a.txt", oldText: "x\n", newText: "y\n" }] });
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: rejectionNote(["/ws/a.txt"]) } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "go on" } });
    assert.deepEqual(q("message-user").map((e) => e.querySelector(".user-text")?.textContent), ["edit a", "go on"]);
    const card = q("tool-card")[0];
    assert.equal(card?.dataset["review"], "rejected");
    assert.match(card.querySelector(".tool-status")?.textContent ?? "", /rejected/);
    assert.match(q("review-note")[0]?.textContent ?? "", /a\.txt/);
  });

  it("replays the user's words and the notes after them in one text, as dsh-acp stores them", () => {
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "edit a" } });
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit /ws/a.txt", kind: "edit", status: "completed", content: [{ type: "diff", path: "/ws/a.txt", oldText: "x\n", newText: "y\n" }] });
    const notes = rejectionNote(["/ws/a.txt"]) + undoneNote([{ path: "/ws/b.txt", line: 3, lines: 1 }]);
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: `go on\n\nand test it\n\n${notes}` } });
    assert.deepEqual(q("message-user").map((e) => e.querySelector(".user-text")?.textContent), ["edit a", "go on\n\nand test it"]);
    assert.equal(q("tool-card")[0]?.dataset["review"], "rejected");
    assert.match(q("review-note")[0]?.textContent ?? "", /You rejected a\.txt; You undid parts of b\.txt/);
  });

  it("replays the user's words that follow a note in the same text, as older versions sent them", () => {
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "edit a" } });
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit /ws/a.txt", kind: "edit", status: "completed", content: [{ type: "diff", path: "/ws/a.txt", oldText: "x\n", newText: "y\n" }] });
    const notes = rejectionNote(["/ws/a.txt"]) + undoneNote([{ path: "/ws/b.txt", line: 3, lines: 1 }]);
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: `${notes}go on\n\nand test it` } });
    assert.deepEqual(q("message-user").map((e) => e.querySelector(".user-text")?.textContent), ["edit a", "go on\n\nand test it"]);
    assert.equal(q("tool-card")[0]?.dataset["review"], "rejected");
    assert.match(q("review-note")[0]?.textContent ?? "", /You rejected a\.txt; You undid parts of b\.txt/);
  });

  it("marks an edit rejected live in the review", () => {
    chat.user("edit a");
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit", kind: "edit", status: "completed", content: [{ type: "diff", path: "/ws/a.txt", oldText: "x\n", newText: "y\n" }] });
    chat.rejected("/ws/a.txt");
    assert.equal(q("tool-card")[0]?.dataset["review"], "rejected");
  });

  it("replays a prompt's context as its label, and the user's words alone as the message", () => {
    const flattened =
      'Rename add to add_item, see @tests/test_cart.sh \n[resource uri="file:///ws/shop/cart.py#L5-L7"]\n```py\n    def add(self, name, price):\n```\n' +
      '\n[resource_link name="test_cart.sh" uri="file:///ws/tests/test_cart.sh"]\n```sh\n#!/bin/sh\necho `ok`\n```\n';
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: flattened } });
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit /ws/shop/cart.py", kind: "edit", status: "completed", content: [{ type: "diff", path: "/ws/shop/cart.py", oldText: "x\n", newText: "y\n" }] });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: `go on\n\n${rejectionNote(["/ws/shop/cart.py"])}\n[resource_link name="a.py" uri="file:///ws/a.py"]\n\`\`\`py\nx\n\`\`\`\n` } });
    assert.deepEqual(q("message-user").map((e) => e.querySelector(".user-text")?.textContent), ["Rename add to add_item, see @tests/test_cart.sh ", "go on"]);
    assert.deepEqual(q("message-context").map((e) => e.textContent), ["shop/cart.py:5-7, tests/test_cart.sh", "a.py"]);
    assert.equal(q("tool-card")[0]?.dataset["review"], "rejected", "the note still marks the card");
  });

  it("labels a replayed prompt's images as the live message was labelled", () => {
    const png = { type: "image" as const, mimeType: "image/png", data: "iVBORw0KGgo=" };
    chat.user("what is this?", "a.py, 1 image");
    const live = q("message-context").map((e) => e.textContent);
    chat.clear();
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: 'what is this?\n[resource_link name="a.py" uri="file:///ws/a.py"]\n```py\nx\n```\n' } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: png });
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "A cart." } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "and these?" } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: png });
    chat.apply({ sessionUpdate: "user_message_chunk", content: png });
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Two carts." } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: png });
    assert.deepEqual(q("message-user").map((e) => e.querySelector(".user-text")?.textContent), ["what is this?", "and these?", ""]);
    assert.deepEqual(q("message-context").map((e) => e.textContent), [...live, "2 images", "1 image"], "an image alone is a message of its own");
  });

  it("marks a replayed message sent during its turn as steered, as live", () => {
    const steered = { _meta: { "dsh-acp": { steered: true } } };
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "one" } });
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "On it." } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "use v2" }, ...steered });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }, ...steered });
    assert.deepEqual(q("message-user").map((e) => [e.querySelector(".user-text")?.textContent, e.dataset["steered"]]), [["one", undefined], ["use v2", "true"]]);
    assert.deepEqual(q("message-context").map((e) => e.textContent), ["1 image"]);
  });

  it("joins a replayed prompt's chunks into one message", () => {
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "one " } });
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "prompt" } });
    assert.deepEqual(q("message-user").map((e) => e.querySelector(".user-text")?.textContent), ["one prompt"]);
  });

  it("renders links, and opens them through the extension", () => {
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "See [the docs](https://example.com/d).\n\n```go\nx := 1\n```" } });
    const link = q("message-link")[0];
    assert.equal(link?.getAttribute("href"), "https://example.com/d");
    click(link);
    click(q("code-copy")[0]);
    click(q("code-insert")[0]);
    assert.deepEqual(sent, [{ type: "openLink", href: "https://example.com/d" }, { type: "copy", text: "x := 1\n" }, { type: "insert", text: "x := 1\n" }]);
    assert.equal(q("code-insert")[0]?.title, "Insert at cursor");
  });
});

describe("a tool card", () => {
  it("shows a command that exited 3 as failed, with its exit", () => {
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "b1" } } });
    chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "completed", _meta: { terminal_output: { terminal_id: "b1", data: "boom\n" }, terminal_exit: { terminal_id: "b1", exit_code: 3 } } });
    const card = q("tool-card")[0];
    assert.equal(card?.dataset["status"], "failed", "a non-zero exit is a failure even if the status said completed");
    assert.equal(card.querySelector(".tool-status")?.textContent, "failed");
    assert.match(q("tool-terminal")[0]?.textContent ?? "", /boom\n\[exit code 3\]$/);
  });

  it("shows the agent's failed status as failed", () => {
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", kind: "execute", status: "in_progress" });
    chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "failed", content: [{ type: "content", content: { type: "text", text: "exit code 3" } }] });
    assert.equal(q("tool-card")[0]?.querySelector(".tool-status")?.textContent, "failed");
  });

  it("shows each path once, relative to the workspace, and hides language-server notes", () => {
    chat.apply({
      sessionUpdate: "tool_call_update",
      toolCallId: "e1",
      title: "Edit /ws/pkg/a.py",
      kind: "edit",
      status: "completed",
      locations: [{ path: "/ws/pkg/a.py", line: 4 }],
      content: [
        { type: "diff", path: "/ws/pkg/a.py", oldText: "a\n", newText: "b\n" },
        { type: "diff", path: "/ws/pkg/a.py", oldText: "c\n", newText: "d\n" },
        { type: "content", content: { type: "text", text: "Note: no language server for .py files: install pyright (not found on PATH)." } },
      ],
    });
    const card = q("tool-card")[0];
    assert.ok(card);
    assert.equal(card.querySelector(".tool-title")?.textContent, "Edit pkg/a.py");
    const links = [...card.querySelectorAll<HTMLElement>("a.path")];
    assert.deepEqual(links.map((a) => a.textContent), ["pkg/a.py:5"]);
    assert.equal(q("tool-card-diff-button").length, 1);
    assert.equal(card.querySelector(".tool-text"), null);
  });

  it("keeps a language server's findings on the card", () => {
    chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "e2", status: "completed", content: [{ type: "content", content: { type: "text", text: "Note: the language server reports 1 new error in a.go" } }] });
    assert.equal(q("tool-card")[0]?.querySelectorAll(".tool-text").length, 1);
  });

  it("shows an edit whose approval was refused as rejected, live and replayed alike", () => {
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "e3", title: "Edit a.txt", kind: "edit", status: "pending" });
    chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "e3", status: "failed", content: [{ type: "content", content: { type: "text", text: 'tool "edit" did not run: the permission request was answered "reject"' } }] });
    const card = q("tool-card")[0];
    assert.equal(card?.dataset["review"], "rejected");
    assert.equal(card.querySelector(".tool-status")?.textContent, "rejected");
  });

  it("shows a request's cost on its turn", () => {
    chat.turnCost("$0.0123");
    assert.equal(q("turn-cost")[0]?.textContent, "This request: $0.0123");
  });

  // What dsh-acp sends (bridge/result.go): a read's numbered lines in a
  // fence, a search's lines, a command's fenced console output (no
  // terminal), a plan review's plan and a summary as Markdown prose.
  const text = (toolCallId: string, kind: string, t: string): SessionUpdate => ({ sessionUpdate: "tool_call", toolCallId, title: "t", kind: kind as ToolKind, status: "completed", content: [{ type: "content", content: { type: "text", text: t } }] });
  const outputs: { name: string; kind: string; text: string; output: string[]; code?: string[]; gutter?: string[] }[] = [
    { name: "a glob's paths, one a line, underscores kept", kind: "search", text: "shop/cart.py\nshop/__init__.py", output: ["shop/cart.py\nshop/__init__.py"] },
    { name: "a grep's matches, paths made relative", kind: "search", text: "/ws/a.py:3: x = **y**\n/ws/b.py:1: # not a heading", output: ["a.py:3: x = **y**\nb.py:1: # not a heading"] },
    { name: "a read's lines, numbers in the gutter, its note after", kind: "read", text: "```py\n     1\tclass Cart:\n    10\t    __slots__ = ()\n\n(Showing lines 1-2 of 9. To see more, read with offset 3.)\n```", output: ["(Showing lines 1-2 of 9. To see more, read with offset 3.)"], code: ["class Cart:\n    __slots__ = ()\n"], gutter: ["1\n10"] },
    { name: "a command's console output and how it ended", kind: "execute", text: "```console\n- a\n```\nexit code 3", output: ["exit code 3"], code: ["- a\n"] },
    { name: "a fetched page's text", kind: "fetch", text: "1. one\n2. two", output: ["1. one\n2. two"] },
    { name: "an edit's notes", kind: "edit", text: "Note: the language server reports 1 new error in a.go:\n  a.go:3: *x* undefined", output: ["Note: the language server reports 1 new error in a.go:\n  a.go:3: *x* undefined"] },
    { name: "an MCP tool's text", kind: "other", text: "a_b_c\n_d_", output: ["a_b_c\n_d_"] },
  ];
  for (const o of outputs) {
    it(`shows a tool's output as it is, not as Markdown: ${o.name}`, () => {
      chat.apply(text("r1", o.kind, o.text));
      const card = q("tool-card")[0];
      assert.deepEqual([...(card?.querySelectorAll(".tool-output") ?? [])].map((e) => e.textContent), o.output);
      assert.deepEqual([...(card?.querySelectorAll("pre > code") ?? [])].map((e) => e.textContent), o.code ?? []);
      assert.deepEqual([...(card?.querySelectorAll(".code-gutter") ?? [])].map((e) => e.textContent), o.gutter ?? []);
      assert.equal(card?.querySelectorAll("strong, em, h1, ol, ul, li").length, 0);
    });
  }

  it("copies and inserts a read's code without its line numbers", () => {
    chat.apply(text("r1", "read", "```go\n     7\tx := 1\n     8\ty := 2\n```"));
    click(q("code-copy")[0]);
    click(q("code-insert")[0]);
    assert.deepEqual(sent, [{ type: "copy", text: "x := 1\ny := 2\n" }, { type: "insert", text: "x := 1\ny := 2\n" }]);
  });

  const prose = "# The plan\n\n1. Rename **add**\n2. Run the tests";
  for (const kind of ["switch_mode", "think"]) {
    it(`renders a ${kind} card's text as Markdown`, () => {
      chat.apply(text("p1", kind, prose));
      const card = q("tool-card")[0];
      assert.equal(card?.querySelector("h1")?.textContent, "The plan");
      assert.equal(card.querySelector("strong")?.textContent, "add");
      assert.equal(card.querySelectorAll(".tool-output").length, 0);
    });
  }

  it("renders a task's text, its subagent's answer, as Markdown once the card holds the subagent", () => {
    chat.apply(text("t1", "other", prose));
    assert.equal(q("tool-card")[0]?.querySelector("h1"), null);
    chat.apply({ sessionUpdate: "subagent_update", sessionId: "c1", state: { state: "done" } });
    chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "t1", _meta: { subagent_session_id: "c1" } });
    assert.equal(q("tool-card")[0]?.querySelector("h1")?.textContent, "The plan");
  });

  it("labels approval buttons without Markdown backticks", () => {
    chat.ask("p1", "b1", "Run", [{ optionId: "always", name: "Always allow `go test …`", kind: "allow_always" }]);
    assert.equal(q("permission-option")[0]?.textContent, "Always allow go test …");
    assert.equal(q("permission-option")[0]?.title, "Always allow go test …", "the whole label is the tooltip too");
  });

  const mainAction: { name: string; kinds: PermissionOptionKind[]; primary: PermissionOptionKind | undefined }[] = [
    { name: "Allow once, whatever the order", kinds: ["allow_always", "allow_once", "reject_once", "reject_always"], primary: "allow_once" },
    { name: "the first allow without Allow once", kinds: ["reject_once", "allow_always"], primary: "allow_always" },
    { name: "none when nothing allows", kinds: ["reject_once", "reject_always"], primary: undefined },
  ];
  for (const tt of mainAction) {
    it(`makes one approval button primary: ${tt.name}`, () => {
      chat.ask("p1", "b1", "Run", tt.kinds.map((kind) => ({ optionId: kind, name: kind, kind })));
      const primary = q("permission-option").filter((b) => b.classList.contains("primary")).map((b) => b.dataset["kind"]);
      assert.deepEqual(primary, tt.primary === undefined ? [] : [tt.primary]);
      assert.equal(q("permission-option").filter((b) => b.classList.contains("secondary")).length, tt.kinds.length - primary.length);
    });
  }
});

describe("restore to here, and edit and resend", () => {
  it("sends the message's place and every prompt from it; the extension's truncate drops it and what follows", () => {
    chat.user("first");
    chat.apply({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "answer one" } });
    chat.user("/undo");
    chat.user("second");
    chat.apply({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Edit", kind: "edit", status: "completed" });
    assert.deepEqual(q("edit-last").map((b) => b.hidden), [true, true, false], "Edit is offered on the last message only");
    assert.deepEqual(q("message-user").map((m) => m.querySelector<HTMLElement>(".user-actions")?.hidden), [false, true, false], "a slash command offers neither");
    click(q("restore-here")[0]);
    assert.deepEqual(sent.at(-1), { type: "restore", index: 0, texts: ["first", "/undo", "second"] });
    chat.truncate(1);
    assert.deepEqual(q("message-user").map((m) => m.querySelector(".user-text")?.textContent), ["first"]);
    assert.equal(q("tool-card").length, 0);
    assert.equal(q("message-agent").length, 1);
    assert.deepEqual(q("edit-last").map((b) => b.hidden), [false]);
    chat.truncate(0);
    assert.equal(q("welcome").length, 1, "an emptied log greets again");
  });

  it("Edit hands the last message's text and restore point to the input", () => {
    const edits: unknown[] = [];
    const withEdit = new Conversation(log, (m) => sent.push(m), (text, point) => edits.push({ text, point }));
    withEdit.user("one");
    withEdit.user("two");
    click(q("edit-last")[1]);
    assert.deepEqual(edits, [{ text: "two", point: { index: 1, texts: ["two"] } }]);
  });
});
