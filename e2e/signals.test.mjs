// Stopping the agent the ways clients do: SIGTERM or SIGINT with stdin
// still open (the AI SDK provider, a terminal's Ctrl-C), and a client that
// closes the agent's stdout. Each must end the turn, leave no process of
// ours behind, and exit 0 promptly.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { agentSuite, startAgent, waitFor, pidAlive, readPids, killAfter } from "./helpers.mjs";
import { CORPUS_DIR } from "./corpus.mjs";

const TIMEOUT = 120_000;
/** Bounds waits for events: a guard against hangs, not a timing check. */
const HANG_GUARD = 60_000;

/**
 * Starts the sigterm script (a background job, then a foreground command
 * with a child) and resolves once every pid is known and running.
 */
async function startBusyAgent(t) {
  const a = await startAgent({
    args: ["--permission", "full-access"],
    script: readFileSync(path.join(CORPUS_DIR, "scripts/sigterm.jsonl"), "utf8"),
  });
  const sid = await a.newSession();
  const answer = a.prompt(sid, "start things").then(
    (r) => ({ stopReason: r.stopReason }),
    (e) => ({ error: String(e) }),
  );
  const bg = await waitFor(() => readPids(path.join(a.workspace, "bg.pid"), 1), { timeoutMs: HANG_GUARD, what: "bg.pid" });
  const fg = await waitFor(() => readPids(path.join(a.workspace, "fg.pid"), 2), { timeoutMs: HANG_GUARD, what: "fg.pid" });
  const pids = [...bg, ...fg];
  killAfter(t, pids);
  for (const pid of pids) assert.ok(pidAlive(pid), `pid ${pid} is not running before the signal`);
  return { a, answer, pids };
}

agentSuite("stopping dsh-acp", () => {
  for (const signal of ["SIGTERM", "SIGINT"]) {
    test(`${signal} with stdin open: the turn ends cancelled, every process is gone, exit 0 within 2 s`, { timeout: TIMEOUT }, async (t) => {
      const { a, answer, pids } = await startBusyAgent(t);
      const sentAt = Date.now();
      a.child.kill(signal);
      const exit = await a.exited;
      const took = Date.now() - sentAt;
      t.diagnostic(`exited ${took} ms after ${signal}`);
      assert.deepEqual(exit, { code: 0, signal: null }, `stderr:\n${a.stderr}`);
      assert.ok(took <= 2000, `exit took ${took} ms`);
      assert.deepEqual(await answer, { stopReason: "cancelled" });
      const alive = pids.filter(pidAlive);
      assert.deepEqual(alive, [], `processes left after ${signal}`);
    });
  }

  test("a second SIGINT exits at once", { timeout: TIMEOUT }, async (t) => {
    const { a } = await startBusyAgent(t);
    a.child.kill("SIGINT");
    a.child.kill("SIGINT");
    const exit = await a.exited;
    assert.notEqual(exit.code, null, `killed by ${exit.signal}`);
  });

  test("a client that closes the agent's stdout: the agent exits 0 and leaves nothing running", { timeout: TIMEOUT }, async (t) => {
    const { a, pids } = await startBusyAgent(t);
    a.child.stdout.destroy();
    // Anything the agent writes now fails; make it write.
    a.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: "after-close", method: "session/new", params: { cwd: a.workspace, mcpServers: [] } }) + "\n");
    const exit = await a.exited;
    assert.deepEqual(exit, { code: 0, signal: null }, `stderr:\n${a.stderr}`);
    await waitFor(() => pids.every((p) => !pidAlive(p)), { timeoutMs: HANG_GUARD, what: "every process to be gone" });
  });
});
