// Plan mode against the binary, driven by the official TS SDK client: the
// user switches the session to plan mode, the model's write is refused
// without asking, it presents its plan with exit_plan_mode, the client
// answers "Implement the plan", and the next write of the same turn runs
// under the preset the session had before (workspace-write).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { agentSuite, startAgent, ZED_INITIALIZE } from "./helpers.mjs";

const plan = "# Plan\n\n1. Write notes.txt\n2. Read it back\n";

const script = [
  { tool_calls: [{ id: "c_early", name: "write", arguments: { file_path: "notes.txt", content: "too early\n" } }] },
  { tool_calls: [{ id: "c_exit", name: "exit_plan_mode", arguments: { plan } }] },
  { tool_calls: [{ id: "c_write", name: "write", arguments: { file_path: "notes.txt", content: "planned\n" } }] },
  { text: "Done: notes.txt is written." },
];

/** Answers the plan review with option and fails on any other request. */
function reviewer(option) {
  return ({ params }) => {
    assert.equal(params.toolCall.kind, "switch_mode", `only the plan review asks: ${JSON.stringify(params.toolCall)}`);
    return option;
  };
}

/** The last status a tool call's updates set. */
function finalStatus(a, id) {
  return a.updates(id).reduce((s, u) => u.status ?? s, undefined);
}

/** The modes the agent told, as current_mode_update and config_option_update. */
function modesTold(a) {
  return a.updates().flatMap((u) => {
    if (u.sessionUpdate === "current_mode_update") return [`current:${u.currentModeId}`];
    if (u.sessionUpdate === "config_option_update") {
      return [`option:${u.configOptions.find((o) => o.id === "mode")?.currentValue}`];
    }
    return [];
  });
}

agentSuite("plan mode", () => {
  for (const withPlan of [true, false]) {
    test(`plan → refused write → exit_plan_mode → implement → the write runs in the same turn (${withPlan ? "with" : "without"} the plan capability)`, async () => {
      const initialize = withPlan
        ? { ...ZED_INITIALIZE, clientCapabilities: { ...ZED_INITIALIZE.clientCapabilities, plan: {} } }
        : ZED_INITIALIZE;
      const a = await startAgent({ script, initialize, unstable: withPlan, permission: reviewer("allow-once") });
      const sessionId = await a.newSession();
      await a.agent.request("session/set_mode", { sessionId, modeId: "plan" });

      const res = await a.prompt(sessionId, "plan, then write notes.txt");
      assert.equal(res.stopReason, "end_turn");

      assert.equal(finalStatus(a, "c_early"), "failed");
      const refusal = JSON.stringify(a.updates("c_early").at(-1).content);
      assert.match(refusal, /plan mode/);
      assert.match(refusal, /exit_plan_mode/);

      assert.equal(a.permissions.length, 1, "only the plan review asked");
      const review = a.permissions[0];
      assert.equal(review.toolCall.toolCallId, "c_exit");
      assert.deepEqual(
        review.options.map((o) => [o.name, o.kind]),
        [["Implement the plan", "allow_once"], ["Keep planning", "reject_once"]],
      );
      assert.equal(finalStatus(a, "c_exit"), "completed");
      // The card says the outcome to the user; the model's instructions are the raw output.
      const outcome = a.updates("c_exit").at(-1);
      assert.deepEqual(outcome.content, [{ type: "content", content: { type: "text", text: "Plan approved — implementing" } }]);
      assert.match(outcome.rawOutput, /now in workspace-write mode/);

      assert.equal(finalStatus(a, "c_write"), "completed");
      assert.equal(readFileSync(path.join(a.workspace, "notes.txt"), "utf8"), "planned\n");
      assert.deepEqual(modesTold(a), ["current:plan", "option:plan", "current:workspace-write", "option:workspace-write"]);

      const plans = a.updates().filter((u) => u.sessionUpdate.startsWith("plan"));
      if (withPlan) {
        assert.deepEqual(plans.map((u) => [u.sessionUpdate, u.plan?.type, u.plan?.content]), [
          ["plan_update", "markdown", plan.trim()],
        ]);
      } else {
        assert.deepEqual(plans.map((u) => u.sessionUpdate), ["plan"]);
        assert.deepEqual(plans[0].entries.map((e) => e.content), ["Write notes.txt", "Read it back"]);
        const text = a.updates().filter((u) => u.sessionUpdate === "agent_message_chunk").map((u) => u.content.text).join("");
        assert.match(text, /1\. Write notes\.txt/);
      }
    });
  }

  test("keep planning leaves the session in plan mode", async () => {
    const a = await startAgent({
      script: [script[1], { tool_calls: [{ id: "c_write", name: "write", arguments: { file_path: "notes.txt", content: "x\n" } }] }, { text: "What should change?" }],
      permission: reviewer("reject-once"),
    });
    const sessionId = await a.newSession();
    await a.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    assert.equal((await a.prompt(sessionId, "plan it")).stopReason, "end_turn");
    const outcome = a.updates("c_exit").at(-1);
    assert.deepEqual(outcome.content, [{ type: "content", content: { type: "text", text: "Keep planning" } }]);
    assert.match(outcome.rawOutput, /keep planning: the session stays in plan mode/);
    assert.equal(finalStatus(a, "c_write"), "failed");
    assert.equal(existsSync(path.join(a.workspace, "notes.txt")), false);
    assert.deepEqual(modesTold(a), ["current:plan", "option:plan"]);
  });
});
