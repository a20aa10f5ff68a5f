import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import { isStopped } from "../../src/chat/callMeta";
import type { ToWebview } from "../../src/chat/messages";
import { COMMAND_STOPPED, agentStopped, stoppedView } from "../../src/session/stoppedCalls";
import { ToolCallStore } from "../../src/session/toolCalls";
import { routerFor } from "../fakes/updateRouter";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

const text = (t: string): ToolCallContent[] => [{ type: "content", content: { type: "text", text: t } }];
const ended = (status: "completed" | "failed", content: ToolCallContent[]): ToolUpdate => ({ sessionUpdate: "tool_call_update", toolCallId: "c1", status, content });

/** What an older dsh-acp sent when a cancel stopped a running bash command (tools/shell, a tool error in a console block); today's ends its terminal instead. */
const BASH_CANCELLED = "```console\nError: the command was cancelled and its processes were stopped; output so far:\nstep 1\nstep 2\n\n[killed by signal: SIGTERM]\n```";

const texts = (u: ToolUpdate): string[] => (u.content ?? []).flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : []));

/** dsh-acp's mark on the final update of a call the turn's cancel stopped (bridge/result.go). */
const STOPPED = { "dsh-acp": { stopped: true } };
const marked = (u: ToolUpdate): ToolUpdate => ({ ...u, _meta: STOPPED });

describe("a call a cancel stopped, as the view shows it", () => {
  const cases: { name: string; u: ToolUpdate; terminal: boolean; stopped: boolean; want: string[] }[] = [
    { name: "a cancelled bash with a terminal: its output once (in the terminal), one short line", u: marked(ended("failed", text(BASH_CANCELLED))), terminal: true, stopped: true, want: [COMMAND_STOPPED] },
    { name: "a cancelled bash without a terminal keeps its output", u: marked(ended("failed", text(BASH_CANCELLED))), terminal: false, stopped: true, want: [BASH_CANCELLED] },
    { name: "another tool stopped while it ran", u: marked(ended("failed", text("Stopped: the turn was cancelled while it ran."))), terminal: false, stopped: true, want: ["Stopped: the turn was cancelled while it ran."] },
    { name: "a call not run", u: marked(ended("failed", text("Not run: the turn was cancelled before it started."))), terminal: false, stopped: true, want: ["Not run: the turn was cancelled before it started."] },
    { name: "a command that failed on its own", u: ended("failed", text("```console\nboom\n```\nexit code 3")), terminal: true, stopped: false, want: ["```console\nboom\n```\nexit code 3"] },
    { name: "the words alone, without dsh-acp's mark, are not a stop", u: ended("failed", text(BASH_CANCELLED)), terminal: true, stopped: false, want: [BASH_CANCELLED] },
    { name: "the mark beside the terminal convention keeps both", u: { ...ended("failed", []), _meta: { ...STOPPED, terminal_output: { terminal_id: "c1", data: "" } } }, terminal: true, stopped: true, want: [COMMAND_STOPPED] },
    { name: "a mark that is not true is no stop", u: { ...ended("failed", text("x")), _meta: { "dsh-acp": { stopped: "yes" } } }, terminal: false, stopped: false, want: ["x"] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const shown = stoppedView(c.u, c.terminal);
      assert.equal(isStopped(shown._meta), c.stopped);
      assert.equal(agentStopped(shown._meta), c.stopped, "the agent's mark is kept");
      assert.deepEqual(texts(shown), c.want);
      assert.equal(shown.status, c.u.status, "the status stays as ACP has it; the card maps it");
    });
  }
});

describe("the update router", () => {
  it("posts the view's form of a call's updates and keeps the agent's for the editor", async () => {
    const posted: ToWebview[] = [];
    const calls = new ToolCallStore();
    const router = routerFor(posted, true, calls);
    await router.apply({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "c1" } } });
    await router.apply(marked(ended("failed", text(BASH_CANCELLED))));
    await router.apply({ sessionUpdate: "tool_call", toolCallId: "p1", title: "Review the plan", kind: "switch_mode", status: "pending" });
    // dsh-acp's plan review says its outcome to the user itself; the model's words are its raw output.
    await router.apply({ ...ended("completed", text("Plan approved — implementing")), toolCallId: "p1", rawOutput: "The user approved the plan. …" });
    const shown = posted.flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "tool_call_update" ? [m.update] : []));
    assert.deepEqual(shown.map((u) => [isStopped(u._meta), texts(u)]), [[true, [COMMAND_STOPPED]], [false, ["Plan approved — implementing"]]]);
    assert.equal(calls.get("c1")?.status, "failed");
  });

  const terminalCall: ToolUpdate = { sessionUpdate: "tool_call", toolCallId: "c1", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "c1" } } };
  const stoppedShown = (posted: ToWebview[]): string[][] => posted.flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "tool_call_update" && isStopped(m.update._meta) ? [texts(m.update)] : []));

  it("forgets a terminal call once it ended, its late output still shown", async () => {
    const posted: ToWebview[] = [];
    const router = routerFor(posted, false);
    await router.apply(terminalCall);
    await router.apply({ sessionUpdate: "tool_call", toolCallId: "c2", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "c2" } } });
    assert.equal(router.openTerminalCalls, 2);
    await router.apply(marked(ended("failed", [])));
    await router.apply({ sessionUpdate: "tool_call_update", toolCallId: "c2", status: "completed", _meta: { terminal_exit: { terminal_id: "c2", exit_code: 0 } } });
    assert.equal(router.openTerminalCalls, 0);
    await router.apply({ sessionUpdate: "tool_call_update", toolCallId: "c1", _meta: { terminal_output: { terminal_id: "c1", data: "late\n" } } });
    const last = posted.at(-1);
    assert.ok(last?.type === "update" && last.update.sessionUpdate === "tool_call_update" && JSON.stringify(last.update._meta).includes("late"));
    assert.deepEqual(stoppedShown(posted), [[COMMAND_STOPPED]]);
  });

  it("forgets the terminal calls of the conversation left: a replayed call of the same id without one keeps its text", async () => {
    const posted: ToWebview[] = [];
    const router = routerFor(posted, true);
    await router.apply(terminalCall);
    assert.equal(router.openTerminalCalls, 1);
    router.forget();
    assert.equal(router.openTerminalCalls, 0);
    await router.apply({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Read", kind: "read", status: "in_progress" });
    await router.apply(marked(ended("failed", text("Stopped: the turn was cancelled while it ran."))));
    assert.deepEqual(stoppedShown(posted), [["Stopped: the turn was cancelled while it ran."]]);
  });
});
