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

describe("a command's end line in its card", () => {
  const cases: { name: string; exit: Record<string, unknown>; meta?: Record<string, unknown>; status: "completed" | "failed"; want: string }[] = [
    { name: "an exit code", exit: { terminal_id: "b1", exit_code: 3, signal: null }, status: "failed", want: "[exit code 3]" },
    { name: "a signal", exit: { terminal_id: "b1", exit_code: null, signal: "SIGKILL" }, status: "failed", want: "[ended by signal SIGKILL]" },
    { name: "stopped by the cancel, with the signal that ended it", exit: { terminal_id: "b1", signal: "SIGTERM" }, meta: { [STOPPED_META]: true }, status: "failed", want: "[cancelled, ended by signal SIGTERM]" },
    { name: "stopped before it ran (neither code nor signal)", exit: { terminal_id: "b1" }, meta: { [STOPPED_META]: true }, status: "failed", want: "[cancelled]" },
    { name: "neither code nor signal, not stopped", exit: { terminal_id: "b1" }, status: "completed", want: "[ended]" },
  ];
  for (const c of cases) {
    it(c.name, () => {
      chat.apply({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "b1" } } });
      chat.apply({ sessionUpdate: "tool_call_update", toolCallId: "b1", status: c.status, _meta: { ...c.meta, terminal_exit: c.exit } });
      const text = log.querySelector('[data-testid="tool-card"] .tool-terminal')?.textContent ?? "";
      assert.equal(text.trim().split("\n").at(-1), c.want);
    });
  }
});
