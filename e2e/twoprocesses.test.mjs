// Two editor windows: two dsh-acp processes sharing one state directory.
// A session open in one is listed by the other but cannot be loaded,
// resumed or deleted there until the first closes it; sessions created in
// both at once all land in the index, which a third process lists whole.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { agentSuite, startAgent } from "./helpers.mjs";

const TIMEOUT = 120_000;

/** A state directory (with its workspace) that outlives the agents of one test. */
function sharedRoot(t) {
  const root = mkdtempSync(path.join(tmpdir(), "dsh-acp-e2e-two-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** Every session the agent lists in its workspace, following the cursor. */
async function listAll(a) {
  const sessions = [];
  let cursor;
  do {
    const page = await a.agent.request("session/list", { cwd: a.workspace, ...(cursor ? { cursor } : {}) });
    sessions.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor);
  return sessions;
}

/** Asserts that promise fails because the session is open in the process with pid. */
async function refusedAsOpenElsewhere(promise, pid, what) {
  await assert.rejects(promise, (err) => {
    assert.equal(typeof err.code, "number", `${what}: not a JSON-RPC error: ${err}`);
    assert.match(err.message, /open in another dsh-acp process/, what);
    assert.match(err.message, new RegExp(`\\(pid ${pid}\\)`), `${what}: the message names the holder`);
    return true;
  });
}

agentSuite("two dsh-acp processes sharing one state directory", () => {
  test("a session open in one process is refused in the other until it is closed there", { timeout: TIMEOUT }, async (t) => {
    const root = sharedRoot(t);
    const first = await startAgent({ root });
    const second = await startAgent({ root });

    const sessionId = await first.newSession();
    await first.prompt(sessionId, "hello"); // a session is stored once it has something to keep
    assert.deepEqual(
      (await listAll(second)).map((s) => s.sessionId),
      [sessionId],
    );

    const params = { sessionId, cwd: second.workspace, mcpServers: [] };
    await refusedAsOpenElsewhere(second.agent.request("session/load", params), first.child.pid, "session/load");
    await refusedAsOpenElsewhere(second.agent.request("session/resume", params), first.child.pid, "session/resume");
    await refusedAsOpenElsewhere(second.agent.request("session/delete", { sessionId }), first.child.pid, "session/delete");

    assert.deepEqual(await first.agent.request("session/close", { sessionId }), {});
    const loaded = await second.agent.request("session/load", params);
    assert.ok(loaded.configOptions.some((o) => o.category === "mode"), "session/load answers the config options");

    // Now the second holds it, and the first is refused in turn.
    await refusedAsOpenElsewhere(
      first.agent.request("session/load", { sessionId, cwd: first.workspace, mcpServers: [] }),
      second.child.pid,
      "session/load back in the first process",
    );
    assert.deepEqual(
      (await listAll(first)).map((s) => s.sessionId),
      [sessionId],
    );

    assert.equal((await first.closeStdin()).code, 0, `first exit; stderr:\n${first.stderr}`);
    assert.equal((await second.closeStdin()).code, 0, `second exit; stderr:\n${second.stderr}`);
  });

  test("sessions created in two processes at once are all listed by a third", { timeout: TIMEOUT }, async (t) => {
    const root = sharedRoot(t);
    const [first, second] = await Promise.all([startAgent({ root }), startAgent({ root })]);

    const perProcess = 10;
    const create = (a) =>
      Array.from({ length: perProcess }, async () => {
        const id = await a.newSession();
        await a.prompt(id, "hello"); // a session is stored once it has something to keep
        return id;
      });
    const created = await Promise.all([...create(first), ...create(second)]);
    assert.equal(new Set(created).size, 2 * perProcess, "every session/new answered its own id");

    const third = await startAgent({ root });
    const listed = await listAll(third);
    assert.deepEqual(listed.map((s) => s.sessionId).sort(), [...created].sort());
    for (const s of listed) assert.equal(s.cwd, third.workspace);
    // Listing without a cwd filter sees the same sessions.
    const all = await third.agent.request("session/list", {});
    assert.deepEqual(all.sessions.map((s) => s.sessionId).sort(), [...created].sort());

    for (const a of [first, second, third]) {
      assert.equal((await a.closeStdin()).code, 0, `exit; stderr:\n${a.stderr}`);
    }
  });

  test("a session closed without a prompt is resumed by a later process, and listed once prompted", { timeout: TIMEOUT }, async (t) => {
    // acpx's `sessions new --name s1`: session/new, then the process exits;
    // a later acpx resumes that id and prompts.
    const root = sharedRoot(t);
    const first = await startAgent({ root, script: [{ text: "hello from the script" }] });
    const named = await first.newSession();
    await first.newSession(); // one an editor opened ahead of time
    assert.equal((await first.closeStdin()).code, 0, `first exit; stderr:\n${first.stderr}`);

    const second = await startAgent({ root, script: [{ text: "hello from the script" }] });
    assert.deepEqual(await listAll(second), [], "no session is listed before it is prompted");
    const resumed = await second.agent.request("session/resume", { sessionId: named, cwd: second.workspace, mcpServers: [] });
    assert.ok(resumed.configOptions.some((o) => o.category === "mode"), "session/resume answers the config options");
    assert.equal((await second.prompt(named, "hello")).stopReason, "end_turn");
    assert.deepEqual(
      (await listAll(second)).map((s) => s.sessionId),
      [named],
    );
    assert.equal((await second.closeStdin()).code, 0, `second exit; stderr:\n${second.stderr}`);
  });
});
