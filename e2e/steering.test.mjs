// Steering and queueing: a message the user types while a turn runs
// (_session/steering, as claude-agent-acp and codex-acp serve it) reaches
// the model at its next step; a second session/prompt waits for the
// running one; session/cancel ends the running turn and the queued.

import { test } from "node:test";
import assert from "node:assert/strict";
import { agentSuite, startAgent, waitFor } from "./helpers.mjs";
import { startFakeModel } from "./fakemodel.mjs";

/** A gate: a Promise the test opens. */
function gate() {
  let open;
  const promise = new Promise((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** The text of the last user message of a chat request. */
function lastUserText(request) {
  const user = request.messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

async function agentWithModel(t) {
  const model = await startFakeModel();
  const a = await startAgent({ model: { baseURL: model.baseURL } });
  t.after(async () => {
    await a.stop();
    await model.close();
  });
  return { model, a, sessionId: await a.newSession() };
}

agentSuite("steering and queueing", () => {
  test("initialize advertises steering", async (t) => {
    const { a } = await agentWithModel(t);
    assert.deepEqual(a.initializeResponse._meta?.steering, { supported: true });
  });

  test("a message steered mid-turn reaches the very next model request and is echoed", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t);
    const held = gate();
    model.answer({ text: "Working on it. ", wait: held.promise });
    model.answer("Switched to the v2 API.");
    const turn = a.prompt(sessionId, "add the endpoint");
    await waitFor(() => model.requests.length === 1, { what: "the first model request" });
    const steered = await a.agent.request("_session/steering", {
      sessionId,
      prompt: [{ type: "text", text: "use the v2 API instead" }],
    });
    assert.deepEqual(steered, { outcome: "injected" });
    held.open();
    assert.equal((await turn).stopReason, "end_turn");
    assert.equal(model.requests.length, 2);
    assert.equal(lastUserText(model.requests[1]), "use the v2 API instead");
    const echoed = a.updates().filter((u) => u.sessionUpdate === "user_message_chunk");
    assert.deepEqual(
      echoed.map((u) => u.content.text),
      ["use the v2 API instead"],
    );
  });

  test("steering with no turn running answers promptRequired when asked to", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t);
    const answer = await a.agent.request("_session/steering", {
      sessionId,
      prompt: [{ type: "text", text: "hello?" }],
      _meta: { steering: { idleBehavior: "promptRequired" } },
    });
    assert.deepEqual(answer, { outcome: "promptRequired", reason: "noRunningTurn" });
    assert.equal(model.requests.length, 0);
  });

  test("a second prompt waits for the running one; each is answered in order", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t);
    const held = gate();
    model.answer({ text: "First answer.", wait: held.promise });
    model.answer("Second answer.");
    const order = [];
    const first = a.prompt(sessionId, "first").then((r) => (order.push("first"), r));
    await waitFor(() => model.requests.length === 1, { what: "the first model request" });
    const second = a.prompt(sessionId, "second").then((r) => (order.push("second"), r));
    held.open();
    assert.equal((await first).stopReason, "end_turn");
    assert.equal((await second).stopReason, "end_turn");
    assert.deepEqual(order, ["first", "second"]);
    assert.deepEqual(model.requests.map(lastUserText), ["first", "second"]);
  });

  test("session/cancel ends the running turn and the queued one", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t);
    model.answer({ text: "never", wait: gate().promise });
    const first = a.prompt(sessionId, "first");
    await waitFor(() => model.requests.length === 1, { what: "the first model request" });
    const second = a.prompt(sessionId, "second");
    await a.agent.notify("session/cancel", { sessionId });
    assert.equal((await first).stopReason, "cancelled");
    assert.equal((await second).stopReason, "cancelled");
    assert.equal(model.requests.length, 1, "the queued prompt never reached the model");
  });
});
