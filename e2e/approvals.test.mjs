// Approvals that remember: "Always allow" a command once and a new process
// runs it without asking, while the same command chained with a write
// outside the workspace still asks.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { agentSuite, startAgent } from "./helpers.mjs";

const TIMEOUT = 120_000;

/** A model step that runs one bash command. */
const bash = (id, command) => ({ tool_calls: [{ id, name: "bash", arguments: { command } }] });

/** The final status of a tool call. */
const finalStatus = (a, id) =>
  a
    .updates()
    .filter((u) => u.toolCallId === id && u.status)
    .map((u) => u.status)
    .at(-1);

agentSuite("remembered approvals", () => {
  test("always allow survives a restart; a chained escape still asks", { timeout: TIMEOUT }, async (t) => {
    const root = mkdtempSync(path.join(tmpdir(), "dsh-acp-e2e-rules-"));
    t.after(() => rmSync(root, { recursive: true, force: true }));
    const command = "go tool dist list";

    const first = await startAgent({
      root,
      script: [bash("c1", command), { text: "Read the help." }],
      permission: () => "allow-always",
    });
    const s1 = await first.newSession();
    assert.equal((await first.prompt(s1, "show the GOPATH help")).stopReason, "end_turn");
    assert.equal(first.permissions.length, 1, "the first run asks");
    const always = first.permissions[0].options.find((o) => o.optionId === "allow-always");
    assert.match(always.name, /^Always allow `go tool .*` in this project$/);
    assert.equal(finalStatus(first, "c1"), "completed");
    assert.equal((await first.closeStdin()).code, 0);

    const second = await startAgent({
      root,
      script: [bash("c2", command), { text: "Again." }, bash("c3", `${command} && touch ../escape`), { text: "Tried." }],
      permission: () => "reject-once",
    });
    const s2 = await second.newSession();
    await second.prompt(s2, "again");
    assert.equal(second.permissions.length, 0, "the remembered command ran without asking");
    assert.equal(finalStatus(second, "c2"), "completed");

    await second.prompt(s2, "and escape");
    assert.equal(second.permissions.length, 1, "the chained write outside the workspace asks");
    assert.equal(second.permissions[0].toolCall.toolCallId, "c3");
    assert.equal(finalStatus(second, "c3"), "failed");
    assert.equal(existsSync(path.join(root, "escape")), false);
  });
});
