import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import type { FromWebview } from "../../src/chat/messages";
import { Conversation } from "../../src/webview/conversation";
import { PendingInput } from "../../src/webview/pendingInput";
import { installDom } from "./dom";

let window: Window;
let sent: FromWebview[];
let pending: PendingInput;

beforeEach(() => {
  window = installDom();
  sent = [];
  pending = new PendingInput((m) => sent.push(m));
  document.body.append(pending.root);
});
afterEach(async () => {
  await window.happyDOM.close();
});

const q = (id: string) => [...pending.root.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
const texts = (id: string) => q(id).map((e) => e.querySelector(".pending-text")?.textContent);

describe("messages sent during a turn", () => {
  it("is hidden while nothing is pending", () => {
    assert.equal(pending.root.hidden, true);
  });

  it("shows a steering message until it lands in the conversation", () => {
    pending.steer("use the v2 API instead");
    assert.equal(pending.root.hidden, false);
    assert.deepEqual(texts("pending-steer"), ["use the v2 API instead"]);
    assert.equal(pending.landed("something else"), false, "another user message is not it");
    assert.equal(pending.landed("use the v2 API instead"), true);
    assert.deepEqual(texts("pending-steer"), []);
    assert.equal(pending.root.hidden, true);
  });

  it("removes a steering message the agent did not take", () => {
    pending.steer("a");
    pending.steer("a");
    pending.dropped("a");
    assert.deepEqual(texts("pending-steer"), ["a"], "one of two with the same text");
  });

  it("shows the queued prompts, each with × to take it back", () => {
    pending.queue([{ id: "q1", text: "then run the tests" }, { id: "q2", text: "and commit" }]);
    assert.deepEqual(texts("pending-queued"), ["then run the tests", "and commit"]);
    q("pending-remove")[1]?.click();
    assert.deepEqual(sent, [{ type: "unqueue", id: "q2" }]);
    pending.queue([{ id: "q1", text: "then run the tests" }]);
    assert.deepEqual(texts("pending-queued"), ["then run the tests"]);
    pending.queue([]);
    assert.equal(pending.root.hidden, true);
  });

  it("forgets everything with the conversation", () => {
    pending.steer("a");
    pending.queue([{ id: "q1", text: "b" }]);
    pending.clear();
    assert.equal(pending.root.hidden, true);
    assert.equal(q("pending-steer").length + q("pending-queued").length, 0);
  });
});

describe("a steered message in the conversation", () => {
  it("is marked once it lands", () => {
    const log = document.createElement("main");
    document.body.append(log);
    const chat = new Conversation(log, () => undefined);
    chat.apply({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "use v2" } });
    chat.markSteered();
    const [msg] = [...log.querySelectorAll<HTMLElement>('[data-testid="message-user"]')];
    assert.equal(msg?.dataset["steered"], "true");
  });
});
