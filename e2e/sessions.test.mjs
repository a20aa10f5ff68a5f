// Sessions that last: a session made and used in one process is listed,
// loaded (its conversation replayed before the answer) and carried on in
// the next, and the model then sees the earlier turns.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { agentSuite, startAgent } from "./helpers.mjs";
import { startFakeModel } from "./fakemodel.mjs";

agentSuite("stored sessions", () => {
  test("a session outlives its process: list, load with replay, prompt again", async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const root = mkdtempSync(path.join(tmpdir(), "dsh-acp-e2e-sessions-"));
    t.after(() => rmSync(root, { recursive: true, force: true }));

    const first = await startAgent({ root, model: { baseURL: model.baseURL } });
    const caps = first.initializeResponse.agentCapabilities;
    assert.equal(caps.loadSession, true);
    assert.deepEqual(caps.sessionCapabilities.list, {});
    assert.deepEqual(caps.sessionCapabilities.resume, {});

    model.answer("The capital of France is Paris.");
    const sessionId = await first.newSession();
    const answer = await first.prompt(sessionId, "What is the capital of France?");
    assert.equal(answer.stopReason, "end_turn");
    const titled = first.updates().find((u) => u.sessionUpdate === "session_info_update");
    assert.equal(titled?.title, "What is the capital of France?");
    assert.equal((await first.closeStdin()).code, 0);

    const second = await startAgent({ root, model: { baseURL: model.baseURL } });
    const listed = await second.agent.request("session/list", { cwd: second.workspace });
    assert.deepEqual(
      listed.sessions.map((s) => [s.sessionId, s.title]),
      [[sessionId, "What is the capital of France?"]],
    );

    const before = second.notifications.length;
    const loaded = await second.agent.request("session/load", { sessionId, cwd: second.workspace, mcpServers: [] });
    // Every replayed update arrived before the answer.
    const replayed = second.notifications.slice(before).map((n) => n.update);
    assert.ok(loaded.configOptions.some((o) => o.category === "mode"));
    const text = (kind) =>
      replayed
        .filter((u) => u.sessionUpdate === kind)
        .map((u) => u.content.text)
        .join("");
    assert.equal(text("user_message_chunk"), "What is the capital of France?");
    assert.equal(text("agent_message_chunk"), "The capital of France is Paris.");

    model.answer("Its population is about two million.");
    const again = await second.prompt(sessionId, "And its population?");
    assert.equal(again.stopReason, "end_turn");
    const last = model.requests.at(-1).messages.filter((m) => m.role !== "system");
    assert.deepEqual(
      last.map((m) => [m.role, m.content]),
      [
        ["user", "What is the capital of France?"],
        ["assistant", "The capital of France is Paris."],
        ["user", "And its population?"],
      ],
    );
  });
});
