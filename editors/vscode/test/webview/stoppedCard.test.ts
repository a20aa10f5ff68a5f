import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import { STOPPED_META } from "../../src/chat/callMeta";
import type { Conversation } from "../../src/webview/conversation";
import { mountConversation } from "./conversationFixture";

let window: Window;
let log: HTMLElement;
let chat: Conversation;

beforeEach(() => {
  ({ window, log, chat } = mountConversation());
});
afterEach(async () => {
  await window.happyDOM.close();
});

describe("a stopped call's card", () => {
  const cases: { name: string; meta: Record<string, unknown> | undefined; want: string }[] = [
    { name: "a call the extension marked stopped reads cancelled", meta: { [STOPPED_META]: true }, want: "cancelled" },
    { name: "any other failed call reads failed", meta: undefined, want: "failed" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      chat.apply({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", kind: "execute", status: "in_progress" });
      chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: "failed", _meta: c.meta });
      const card = log.querySelector<HTMLElement>('[data-testid="tool-card"]');
      assert.equal(card?.dataset["status"], c.want);
      assert.equal(card.querySelector(".tool-status")?.textContent, c.want);
    });
  }
});
