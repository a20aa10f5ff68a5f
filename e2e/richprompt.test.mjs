// Rich prompts: images and embedded context from the editor reach the
// model (the fake model server records each request) in the shape the
// model takes: OpenAI content parts for a model configured with images,
// text with a note for one without; embedded and linked files as fenced
// text headed by their URI.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { agentSuite, startAgent } from "./helpers.mjs";
import { startFakeModel } from "./fakemodel.mjs";

// A 1×1 PNG.
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** The blocks of a prompt with text, an embedded resource and an image. */
function richPrompt(workspace) {
  return [
    { type: "text", text: "Compare the screenshot with the notes." },
    {
      type: "resource",
      resource: { uri: `file://${workspace}/notes.md`, mimeType: "text/markdown", text: "# Notes\nThe button is blue.\n" },
    },
    { type: "image", mimeType: "image/png", data: PNG },
  ];
}

/** The fenced block the notes resource becomes. */
const notesFence = (workspace) => `[resource uri="file://${workspace}/notes.md"]\n\`\`\`md\n# Notes\nThe button is blue.\n\`\`\``;

/** The last user message of the model's last request. */
function lastUser(model) {
  const msgs = model.requests.at(-1).messages.filter((m) => m.role === "user");
  return msgs.at(-1);
}

agentSuite("rich prompts", () => {
  test("capabilities are advertised; an embedded resource reaches the model, an image never as raw text", async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const a = await startAgent({ model: { baseURL: model.baseURL } });
    const caps = a.initializeResponse.agentCapabilities.promptCapabilities;
    assert.equal(caps.image, true);
    assert.equal(caps.embeddedContext, true);
    assert.notEqual(caps.audio, true);

    const sessionId = await a.newSession();
    const res = await a.agent.request("session/prompt", { sessionId, prompt: richPrompt(a.workspace) });
    assert.equal(res.stopReason, "end_turn");
    const user = lastUser(model);
    // fake-model is not configured to take images: plain text, no parts.
    assert.equal(typeof user.content, "string");
    assert.ok(user.content.startsWith("Compare the screenshot with the notes."), user.content);
    assert.ok(user.content.includes(notesFence(a.workspace)), user.content);
    assert.ok(!user.content.includes(PNG), "the image's data reached a text-only model as text");
  });

  test("audio is refused with -32602 naming its type", async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const a = await startAgent({ model: { baseURL: model.baseURL } });
    const sessionId = await a.newSession();
    await assert.rejects(
      a.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "listen" }, { type: "audio", mimeType: "audio/wav", data: "UklGRg==" }],
      }),
      (err) => err.code === -32602 && /audio\/wav/.test(err.message),
    );
    assert.equal(model.requests.length, 0);
  });

  test("a model configured with images gets OpenAI content parts", async (t) => {
    const model = await startFakeModel({ models: ["vision"] });
    t.after(() => model.close());
    const a = await startAgent({
      model: { baseURL: model.baseURL, name: "vision" },
      setup: (root) => {
        const dir = path.join(root, "config", "dsh-acp");
        mkdirSync(dir, { recursive: true });
        writeFileSync(
          path.join(dir, "config.toml"),
          [
            `model = "vision"`,
            `[providers.fake]`,
            `base_url = "${model.baseURL}"`,
            `keyless = true`,
            `[models.vision]`,
            `provider = "fake"`,
            `images = true`,
            "",
          ].join("\n"),
        );
      },
    });
    const sessionId = await a.newSession();
    const res = await a.agent.request("session/prompt", { sessionId, prompt: richPrompt(a.workspace) });
    assert.equal(res.stopReason, "end_turn");
    const parts = lastUser(model).content;
    assert.ok(Array.isArray(parts), `content is ${JSON.stringify(parts)}`);
    assert.equal(parts.length, 2);
    assert.equal(parts[0].type, "text");
    assert.ok(parts[0].text.startsWith("Compare the screenshot with the notes."));
    assert.ok(parts[0].text.includes(notesFence(a.workspace)), parts[0].text);
    assert.deepEqual(parts[1], { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } });
  });

  test("a model without images gets a note in the text, and the user sees why", async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const a = await startAgent({ model: { baseURL: model.baseURL } });
    const sessionId = await a.newSession();
    await a.agent.request("session/prompt", { sessionId, prompt: richPrompt(a.workspace) });
    const { content } = lastUser(model);
    assert.ok(
      content.includes("[image omitted: model fake-model does not accept images; configure images = true for it]"),
      content,
    );
    const shown = a
      .updates()
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => u.content.text)
      .join("");
    assert.match(shown, /image in this prompt was not sent: model fake-model does not accept images/);
  });

  test("a resource link inside the workspace is read through the editor", async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const a = await startAgent({
      model: { baseURL: model.baseURL },
      files: { "src/app.go": "package app\n" },
      buffers: { "src/app.go": "package app // unsaved\n" },
    });
    const sessionId = await a.newSession();
    const file = path.join(a.workspace, "src", "app.go");
    await a.agent.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "Review" },
        { type: "resource_link", name: "app.go", uri: `file://${file}` },
        { type: "resource_link", name: "hosts", uri: "file:///etc/hosts" },
      ],
    });
    const { content } = lastUser(model);
    assert.ok(content.includes(`[resource_link name="app.go" uri="file://${file}"]\n\`\`\`go\npackage app // unsaved\n\`\`\``), content);
    assert.ok(content.includes(`[resource_link name="hosts" uri="file:///etc/hosts"]\n`), content);
    assert.ok(a.reads.some((r) => r.path === file), "the editor was not asked for the linked file");
  });
});
