// ask_user: the model's questions reach the user through the editor's
// form (elicitation/create) when the client shows forms, as a permission
// prompt of the choices when it does not, and the answers reach the
// model's next request.

import { test } from "node:test";
import assert from "node:assert/strict";
import { agentSuite, startAgent, ZED_INITIALIZE } from "./helpers.mjs";
import { startFakeModel } from "./fakemodel.mjs";

/** Zed's initialize plus elicitation forms. */
const FORMS_INITIALIZE = Object.freeze({
  ...ZED_INITIALIZE,
  clientCapabilities: { ...ZED_INITIALIZE.clientCapabilities, elicitation: { form: {} } },
});

/** A model step calling ask_user with questions. */
const askStep = (...questions) => ({
  tool_calls: [{ id: "c_ask", name: "ask_user", arguments: { questions } }],
});

const DATABASE = { question: "Which database?", options: ["PostgreSQL", "SQLite"] };

/** The text of a chat request's tool messages. */
function toolResults(request) {
  return request.messages
    .filter((m) => m.role === "tool")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
}

/** An agent on a fake model, given startAgent options; a session in it. */
async function agentWithModel(t, options) {
  const model = await startFakeModel();
  const a = await startAgent({ ...options, model: { baseURL: model.baseURL } });
  t.after(async () => {
    await a.stop();
    await model.close();
  });
  return { model, a, sessionId: await a.newSession() };
}

agentSuite("ask_user", () => {
  test("through the editor's form: the answers reach the model", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t, {
      initialize: FORMS_INITIALIZE,
      elicitation: () => ({ action: "accept", content: { q1: "SQLite", q2: "hot" } }),
    });
    model.answer(askStep(DATABASE, { question: "What should the cache be called?" }));
    model.answer("Using SQLite for the hot cache.");
    const { stopReason } = await a.prompt(sessionId, "set up the cache");
    assert.equal(stopReason, "end_turn");

    assert.equal(a.elicitations.length, 1);
    const form = a.elicitations[0];
    assert.equal(form.mode, "form");
    assert.equal(form.sessionId, sessionId);
    assert.equal(form.toolCallId, "c_ask");
    assert.deepEqual(Object.keys(form.requestedSchema.properties), ["q1", "q1_own", "q2"]);
    assert.deepEqual(form.requestedSchema.properties.q1.enum, ["PostgreSQL", "SQLite"]);
    assert.deepEqual(form.requestedSchema.required, ["q2"]);

    assert.equal(model.requests.length, 2);
    const results = toolResults(model.requests[1]);
    assert.match(results, /1\. Which database\?\n {3}Answer: SQLite/);
    assert.match(results, /2\. What should the cache be called\?\n {3}Answer: hot/);
    const call = a.updates("c_ask").find((u) => u.sessionUpdate === "tool_call");
    assert.equal(call.kind, "think");
    assert.equal(call.title, "Which database? (+1 more)");
    assert.equal(a.permissions.length, 0, "the question asked for no approval");
  });

  test("through the editor's form: a decline is told to the model, a cancel ends the turn", async (t) => {
    let action = "decline";
    const { model, a, sessionId } = await agentWithModel(t, {
      initialize: FORMS_INITIALIZE,
      elicitation: () => ({ action }),
    });
    model.answer(askStep({ question: "Which name?" }));
    model.answer("I will pick one.");
    assert.equal((await a.prompt(sessionId, "name it")).stopReason, "end_turn");
    assert.match(toolResults(model.requests[1]), /The user declined to answer\./);

    action = "cancel";
    model.answer(askStep({ question: "Which name, then?" }));
    assert.equal((await a.prompt(sessionId, "name it again")).stopReason, "cancelled");
    assert.equal(model.requests.length, 3, "the model was not asked after the cancel");
  });

  test("without forms, one question with options is a permission prompt of its choices", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t, { permission: () => "choice-1" });
    model.answer(askStep(DATABASE));
    model.answer("Using SQLite.");
    assert.equal((await a.prompt(sessionId, "set up the cache")).stopReason, "end_turn");

    assert.equal(a.permissions.length, 1);
    const asked = a.permissions[0];
    assert.equal(asked.toolCall.toolCallId, "c_ask");
    assert.equal(asked.toolCall.title, "Which database?");
    assert.deepEqual(
      asked.options.map((o) => [o.optionId, o.name, o.kind]),
      [
        ["choice-0", "PostgreSQL", "allow_once"],
        ["choice-1", "SQLite", "allow_once"],
        ["decline", "Don't answer", "reject_once"],
      ],
    );
    assert.match(toolResults(model.requests[1]), /Answer: SQLite/);
  });

  test("without forms, a free-text question tells the model to ask in its answer", async (t) => {
    const { model, a, sessionId } = await agentWithModel(t);
    model.answer(askStep({ question: "Which name?" }));
    model.answer("Which name should it have?");
    assert.equal((await a.prompt(sessionId, "name it")).stopReason, "end_turn");
    assert.match(toolResults(model.requests[1]), /cannot show questions to the user\. End your turn now and ask in your answer/);
    assert.equal(a.permissions.length, 0);
  });
});
