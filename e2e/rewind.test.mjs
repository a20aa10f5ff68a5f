// /rewind end to end: it reverts the last turn's file and drops the turn
// from the conversation; the next process's session/load replays the
// conversation without it (nor the /rewind exchange), and the model's
// next request holds no trace of it.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { agentSuite, startAgent, waitFor } from "./helpers.mjs";
import { startFakeModel } from "./fakemodel.mjs";

/** The text of the model's latest request, its system prompt aside. */
const conversation = (model) =>
  JSON.stringify(model.requests.at(-1).messages.filter((m) => m.role !== "system"));

agentSuite("/rewind", () => {
  test("a rewound turn is reverted, forgotten, and not replayed by the next process", async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const root = mkdtempSync(path.join(tmpdir(), "dsh-acp-e2e-rewind-"));
    t.after(() => rmSync(root, { recursive: true, force: true }));

    const first = await startAgent({ root, model: { baseURL: model.baseURL } });
    const sessionId = await first.newSession();
    const commands = await waitFor(
      () => first.updates().find((u) => u.sessionUpdate === "available_commands_update"),
      { what: "the session's commands" },
    );
    const rewind = commands.availableCommands.find((c) => c.name === "rewind");
    assert.match(rewind?.description ?? "", /drop it from the conversation/);

    const write = (id, file, content) => ({ tool_calls: [{ id, name: "write", arguments: { file_path: file, content } }] });
    model.answer(write("w1", "one.txt", "turn one\n"));
    model.answer("Wrote one.");
    assert.equal((await first.prompt(sessionId, "write one")).stopReason, "end_turn");
    model.answer(write("w2", "two.txt", "turn two\n"));
    model.answer("Wrote two.");
    assert.equal((await first.prompt(sessionId, "write two")).stopReason, "end_turn");
    assert.ok(existsSync(path.join(first.workspace, "two.txt")));

    const from = first.notifications.length;
    assert.equal((await first.prompt(sessionId, "/rewind")).stopReason, "end_turn");
    const reply = first.notifications
      .slice(from)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => u.content.text)
      .join("");
    assert.match(reply, /Dropped the last turn \("write two"\) from the conversation/);
    assert.match(reply, /Reverted 1 file the turn changed:\n- two\.txt/);
    assert.ok(!existsSync(path.join(first.workspace, "two.txt")), "two.txt is still there");
    assert.equal(readFileSync(path.join(first.workspace, "one.txt"), "utf8"), "turn one\n");

    model.answer("Third answer.");
    await first.prompt(sessionId, "third");
    assert.doesNotMatch(conversation(model), /write two|Wrote two|two\.txt|\/rewind/);
    assert.match(conversation(model), /write one/);
    assert.equal((await first.closeStdin()).code, 0);

    const second = await startAgent({ root, model: { baseURL: model.baseURL } });
    const before = second.notifications.length;
    await second.agent.request("session/load", { sessionId, cwd: second.workspace, mcpServers: [] });
    const replayed = JSON.stringify(second.notifications.slice(before).map((n) => n.update));
    assert.doesNotMatch(replayed, /write two|Wrote two|\/rewind|Dropped|Restored/);
    assert.match(replayed, /write one/);
    assert.match(replayed, /Third answer/);

    model.answer("Fourth answer.");
    await second.prompt(sessionId, "fourth");
    assert.doesNotMatch(conversation(model), /write two|Wrote two|two\.txt|\/rewind/);
  });
});
