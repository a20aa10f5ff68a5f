// The model choice the older way: agent-shell reads the "models" member of
// session/new, and the AI SDK provider switches with session/set_model
// (languageModel("id")); the config option shows the same choice.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { agentSuite, startAgent } from "./helpers.mjs";
import { startFakeModel } from "./fakemodel.mjs";

/** A config file offering two models of the fake server. */
function twoModels(baseURL) {
  return (root) => {
    const dir = path.join(root, "config", "dsh-acp");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, "config.toml"),
      [
        `model = "m-one"`,
        `[providers.fake]`,
        `base_url = "${baseURL}"`,
        `keyless = true`,
        `[models.m-one]`,
        `provider = "fake"`,
        `name = "Model one"`,
        `[models.m-two]`,
        `provider = "fake"`,
        `name = "Model two"`,
        "",
      ].join("\n"),
    );
  };
}

agentSuite("the older model choice", () => {
  test("session/new lists the models; session/set_model switches the next request's model", async (t) => {
    const model = await startFakeModel({ models: ["m-one", "m-two"] });
    t.after(() => model.close());
    const a = await startAgent({ model: { baseURL: model.baseURL, name: "m-one" }, setup: twoModels(model.baseURL) });

    const created = await a.agent.request("session/new", { cwd: a.workspace, mcpServers: [] });
    assert.equal(created.models?.currentModelId, "m-one");
    const offered = created.models.availableModels.map((m) => [m.modelId, m.name]);
    assert.deepEqual(offered.slice(0, 2), [
      ["m-one", "Model one"],
      ["m-two", "Model two"],
    ]);
    const option = created.configOptions.find((o) => o.id === "model");
    assert.deepEqual(
      option.options.map((o) => o.value),
      created.models.availableModels.map((m) => m.modelId),
      "the config option offers the same models",
    );

    const sessionId = created.sessionId;
    assert.deepEqual(await a.agent.request("session/set_model", { sessionId, modelId: "m-two" }), {});
    await assert.rejects(a.agent.request("session/set_model", { sessionId, modelId: "m-nine" }), (err) => err.code === -32602);

    model.answer("Answered by the second model.");
    assert.equal((await a.prompt(sessionId, "hello")).stopReason, "end_turn");
    assert.equal(model.requests.at(-1).model, "m-two");
    const told = a.updates().filter((u) => u.sessionUpdate === "config_option_update");
    assert.ok(
      told.some((u) => u.configOptions.find((o) => o.id === "model")?.currentValue === "m-two"),
      `config option updates: ${JSON.stringify(told)}`,
    );
    assert.equal((await a.closeStdin()).code, 0, `exit; stderr:\n${a.stderr}`);
  });
});
