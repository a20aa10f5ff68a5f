import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import { isStopped } from "../../src/chat/callMeta";
import type { ToWebview } from "../../src/chat/messages";
import { PLAN_APPROVED, PLAN_KEPT, planOutcomeView } from "../../src/session/planOutcome";
import { COMMAND_STOPPED, stoppedView } from "../../src/session/stoppedCalls";
import { ToolCallStore } from "../../src/session/toolCalls";
import { routerFor } from "../fakes/updateRouter";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

const text = (t: string): ToolCallContent[] => [{ type: "content", content: { type: "text", text: t } }];
const ended = (status: "completed" | "failed", content: ToolCallContent[]): ToolUpdate => ({ sessionUpdate: "tool_call_update", toolCallId: "c1", status, content });

/** What dsh-acp sends when a cancel stops a running bash command (tools/shell, a tool error in a console block). */
const BASH_CANCELLED = "```console\nError: the command was cancelled and its processes were stopped; output so far:\nstep 1\nstep 2\n\n[killed by signal: SIGTERM]\n```";

const texts = (u: ToolUpdate): string[] => (u.content ?? []).flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : []));

describe("a call a cancel stopped, as the view shows it", () => {
  const cases: { name: string; u: ToolUpdate; terminal: boolean; stopped: boolean; want: string[] }[] = [
    { name: "a cancelled bash with a terminal: its output once (in the terminal), one short line", u: ended("failed", text(BASH_CANCELLED)), terminal: true, stopped: true, want: [COMMAND_STOPPED] },
    { name: "a cancelled bash without a terminal keeps its output", u: ended("failed", text(BASH_CANCELLED)), terminal: false, stopped: true, want: [BASH_CANCELLED] },
    { name: "another tool stopped while it ran", u: ended("failed", text("Stopped: the turn was cancelled while it ran.")), terminal: false, stopped: true, want: ["Stopped: the turn was cancelled while it ran."] },
    { name: "a call not run", u: ended("failed", text("Not run: the turn was cancelled before it started.")), terminal: false, stopped: true, want: ["Not run: the turn was cancelled before it started."] },
    { name: "a command that failed on its own", u: ended("failed", text("```console\nboom\n```\nexit code 3")), terminal: true, stopped: false, want: ["```console\nboom\n```\nexit code 3"] },
    { name: "a completed call saying the words", u: ended("completed", text("Stopped: the turn was cancelled while it ran.")), terminal: false, stopped: false, want: ["Stopped: the turn was cancelled while it ran."] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const shown = stoppedView(c.u, c.terminal);
      assert.equal(isStopped(shown._meta), c.stopped);
      assert.deepEqual(texts(shown), c.want);
      assert.equal(shown.status, c.u.status, "the status stays as ACP has it; the card maps it");
    });
  }
});

/** What dsh-acp's exit_plan_mode tells the model (tools/planmode). */
const APPROVED = "The user approved the plan. The session has left plan mode and is now in default mode: implement the plan now, in this turn, step by step, and check the result as the plan says.";
const KEPT = "The user chose to keep planning: the session stays in plan mode. Revise the plan — if their messages do not say what to change, end your turn asking them — and present the revised plan with exit_plan_mode.";

describe("a plan review's outcome, as the view shows it", () => {
  const cases: { name: string; u: ToolUpdate; kind: "switch_mode" | "execute" | undefined; want: string[] }[] = [
    { name: "approved", u: ended("completed", text(APPROVED)), kind: "switch_mode", want: [PLAN_APPROVED] },
    { name: "kept planning", u: ended("completed", text(KEPT)), kind: "switch_mode", want: [PLAN_KEPT] },
    { name: "the kind on the update itself", u: { ...ended("completed", text(APPROVED)), kind: "switch_mode" }, kind: undefined, want: [PLAN_APPROVED] },
    { name: "another kind keeps its text", u: ended("completed", text(APPROVED)), kind: "execute", want: [APPROVED] },
    { name: "a failed review keeps its text", u: ended("failed", text("Error: plan is empty")), kind: "switch_mode", want: ["Error: plan is empty"] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(texts(planOutcomeView(c.u, c.kind)), c.want));
});

describe("the update router", () => {
  it("posts the view's form of a call's updates and keeps the agent's for the editor", async () => {
    const posted: ToWebview[] = [];
    const calls = new ToolCallStore();
    const router = routerFor(posted, true, calls);
    await router.apply({ sessionUpdate: "tool_call", toolCallId: "c1", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "c1" } } });
    await router.apply(ended("failed", text(BASH_CANCELLED)));
    await router.apply({ sessionUpdate: "tool_call", toolCallId: "p1", title: "Review the plan", kind: "switch_mode", status: "pending" });
    await router.apply({ ...ended("completed", text(APPROVED)), toolCallId: "p1" });
    const shown = posted.flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "tool_call_update" ? [m.update] : []));
    assert.deepEqual(shown.map((u) => [isStopped(u._meta), texts(u)]), [[true, [COMMAND_STOPPED]], [false, [PLAN_APPROVED]]]);
    assert.equal(calls.get("c1")?.status, "failed");
  });
});
