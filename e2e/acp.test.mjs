// End-to-end: the built dsh-acp binary driven over stdio by the official ACP
// TypeScript SDK 2.x client(), sending Zed's exact initialize, with a
// scripted model (DSH_MODEL_SCRIPT) in a fresh workspace per case.
//
// Run: node --test e2e/            (builds the binary with go build)
//      DSH_ACP_BIN=/path/to/dsh-acp node --test e2e/

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import path from "node:path";
import {
  agentSuite,
  startAgent,
  waitFor,
  pidAlive,
  readPids,
  killAfter,
  sleep,
} from "./helpers.mjs";

const TIMEOUT = 120_000;
/** Bounds waits for events: a guard against hangs, not a timing check. */
const HANG_GUARD = 60_000;

/** The tool_call and every tool_call_update of one call, in order. */
function callUpdates(a, id) {
  return a.updates(id).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
}

/**
 * Invariants every case checks on what it saw: each stdout line is a
 * JSON-RPC 2.0 message; no tool_call_update precedes its tool_call; no
 * session/update for a session follows its prompt's stop response.
 */
function checkInvariants(a) {
  const msgs = a.stdoutLines().map((line, i) => {
    let m;
    assert.doesNotThrow(() => (m = JSON.parse(line)), `stdout line ${i + 1} is not JSON: ${JSON.stringify(line)}`);
    assert.equal(m?.jsonrpc, "2.0", `stdout line ${i + 1} is not JSON-RPC 2.0: ${line}`);
    return m;
  });
  const announced = new Set();
  for (const u of msgs.filter((m) => m.method === "session/update").map((m) => m.params.update)) {
    if (u.sessionUpdate === "tool_call") announced.add(u.toolCallId);
    if (u.sessionUpdate === "tool_call_update")
      assert.ok(announced.has(u.toolCallId), `tool_call_update before tool_call for ${u.toolCallId}`);
  }
  const lastStop = msgs.findLastIndex((m) => m.result && typeof m.result.stopReason === "string");
  if (lastStop >= 0) {
    const late = msgs.slice(lastStop + 1).filter((m) => m.method === "session/update");
    assert.deepEqual(late, [], "session/update after the prompt's stop response");
  }
  return msgs;
}

agentSuite("dsh-acp over stdio with the official TS SDK client()", () => {
  test("initialize as Zed: protocol 1, agentInfo", { timeout: TIMEOUT }, async () => {
    const a = await startAgent();
    assert.equal(a.initializeResponse.protocolVersion, 1);
    assert.equal(a.initializeResponse.agentInfo?.name, "dsh-acp");
    checkInvariants(a);
  });

  test("write: a diff card with oldText null, written through fs/write_text_file, end_turn", { timeout: TIMEOUT }, async () => {
    const content = "#!/bin/sh\necho hello\n";
    const a = await startAgent({
      script: [
        { text: "Writing it.", tool_calls: [{ id: "w1", name: "write", arguments: { file_path: "hello.sh", content } }] },
        { text: "Done." },
      ],
    });
    const sid = await a.newSession();
    const res = await a.prompt(sid, "write hello.sh");
    assert.equal(res.stopReason, "end_turn");

    const target = path.join(a.workspace, "hello.sh");
    const ups = callUpdates(a, "w1");
    assert.equal(ups[0].sessionUpdate, "tool_call");
    assert.equal(ups[0].kind, "edit");
    const card = (ups[0].content ?? []).find((c) => c.type === "diff");
    assert.ok(card, `the tool_call has no diff content: ${JSON.stringify(ups[0])}`);
    assert.equal(card.oldText, null);
    const diffs = ups.flatMap((u) => u.content ?? []).filter((c) => c.type === "diff");
    assert.ok(diffs.length > 0, "no diff content on the write's card");
    for (const d of diffs) {
      assert.equal(d.path, target);
      assert.equal(d.oldText, null);
      assert.equal(d.newText, content);
    }
    assert.equal(ups.at(-1).status, "completed");

    assert.deepEqual(
      a.writes.map((w) => ({ sessionId: w.sessionId, path: w.path, content: w.content })),
      [{ sessionId: sid, path: target, content }],
    );
    assert.equal(readFileSync(target, "utf8"), content);
    checkInvariants(a);
  });

  test("edit: the completed update carries the applied hunk, via fs/read_text_file + fs/write_text_file", { timeout: TIMEOUT }, async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const before = lines.join("\n") + "\n";
    const after = before.replace("line 15\n", "line fifteen\n");
    const a = await startAgent({
      files: { "notes.txt": before },
      script: [
        { tool_calls: [{ id: "e1", name: "edit", arguments: { file_path: "notes.txt", old_string: "line 15\n", new_string: "line fifteen\n" } }] },
        { text: "Edited." },
      ],
    });
    const sid = await a.newSession();
    const res = await a.prompt(sid, "edit notes.txt");
    assert.equal(res.stopReason, "end_turn");

    const target = path.join(a.workspace, "notes.txt");
    const ups = callUpdates(a, "e1");
    assert.equal(ups[0].sessionUpdate, "tool_call");
    const done = ups.at(-1);
    assert.equal(done.status, "completed");
    const diff = (done.content ?? []).find((c) => c.type === "diff");
    assert.ok(diff, `no diff on the completed update: ${JSON.stringify(done)}`);
    assert.equal(diff.path, target);
    // The hunk: the change with some context, not the whole file.
    assert.match(diff.oldText, /line 15(\n|$)/);
    assert.match(diff.newText, /line fifteen(\n|$)/);
    assert.match(diff.oldText, /line 14\n/, "the hunk has leading context");
    assert.match(diff.oldText, /\nline 16/, "the hunk has trailing context");
    assert.ok(!diff.oldText.includes("line 1\n"), "the hunk is not the whole file");
    assert.ok(!diff.oldText.includes("line 30"), "the hunk is not the whole file");
    assert.ok(before.includes(diff.oldText) && after.includes(diff.newText), "the hunk is a slice of the file");

    assert.ok(a.reads.some((r) => r.path === target && r.sessionId === sid), "the file was not read through fs/read_text_file");
    assert.deepEqual(a.writes.map((w) => [w.path, w.content]), [[target, after]]);
    assert.equal(readFileSync(target, "utf8"), after);
    checkInvariants(a);
  });

  const askCommand = "touch marker && echo ran";
  // The permission request's title: the command, then why it asks.
  const askTitle = `${askCommand} — "touch" is not read-only and no rule allows it`;

  test("bash asks permission: the full command and why as title, four options; allow-once runs it", { timeout: TIMEOUT }, async () => {
    const a = await startAgent({
      script: [
        { tool_calls: [{ id: "b1", name: "bash", arguments: { command: askCommand, description: "Make a marker" } }] },
        { text: "Ran it." },
      ],
      permission: () => "allow-once",
    });
    const sid = await a.newSession();
    const res = await a.prompt(sid, "run it");
    assert.equal(res.stopReason, "end_turn");

    assert.equal(a.permissions.length, 1);
    const ask = a.permissions[0];
    assert.equal(ask.sessionId, sid);
    assert.equal(ask.toolCall.toolCallId, "b1");
    assert.equal(ask.toolCall.title, askTitle);
    assert.deepEqual(
      ask.options.map((o) => [o.optionId, o.kind]),
      [
        ["allow-once", "allow_once"],
        ["allow-always", "allow_always"],
        ["reject-once", "reject_once"],
        ["reject-always", "reject_always"],
      ],
    );

    assert.ok(existsSync(path.join(a.workspace, "marker")), "the approved command did not run");
    const ups = callUpdates(a, "b1");
    assert.equal(ups[0].sessionUpdate, "tool_call");
    assert.equal(ups[0].kind, "execute");
    const last = ups.at(-1);
    assert.equal(last.status, "completed");
    assert.equal(last._meta?.terminal_exit?.exit_code, 0);
    const output = ups.map((u) => u._meta?.terminal_output?.data ?? "").join("");
    assert.match(output, /ran/);
    checkInvariants(a);
  });

  test("bash rejected once: the command does not run and the call fails", { timeout: TIMEOUT }, async () => {
    const a = await startAgent({
      script: [
        { tool_calls: [{ id: "b1", name: "bash", arguments: { command: askCommand } }] },
        { text: "Not allowed, then." },
      ],
      permission: () => "reject-once",
    });
    const sid = await a.newSession();
    const res = await a.prompt(sid, "run it");
    assert.equal(res.stopReason, "end_turn");
    assert.equal(a.permissions.length, 1);
    assert.equal(a.permissions[0].toolCall.title, askTitle);
    await sleep(200);
    assert.ok(!existsSync(path.join(a.workspace, "marker")), "the rejected command ran");
    const ups = callUpdates(a, "b1");
    assert.equal(ups[0].sessionUpdate, "tool_call");
    assert.equal(ups.at(-1).status, "failed");
    assert.ok(!ups.some((u) => u.status === "in_progress" && u._meta?.terminal_output), "a rejected command produced output");
    checkInvariants(a);
  });

  test("a long command streams its output in >= 3 terminal_output updates before terminal_exit", { timeout: TIMEOUT }, async () => {
    const command = "for i in 1 2 3 4 5; do echo line $i; sleep 0.3; done";
    const a = await startAgent({
      args: ["--permission", "full-access"],
      script: [{ tool_calls: [{ id: "b1", name: "bash", arguments: { command } }] }, { text: "ok" }],
    });
    const sid = await a.newSession();
    const res = await a.prompt(sid, "count");
    assert.equal(res.stopReason, "end_turn");
    assert.equal(a.permissions.length, 0, "full-access asked anyway");

    const ups = callUpdates(a, "b1");
    const call = ups[0];
    assert.equal(call.sessionUpdate, "tool_call");
    assert.equal(call.title, command);
    assert.equal(call._meta?.terminal_info?.terminal_id, "b1");
    const updates = ups.slice(1);
    const exitAt = updates.findIndex((u) => u._meta?.terminal_exit);
    assert.equal(exitAt, updates.length - 1, "terminal_exit is on the final update");
    const live = updates.slice(0, exitAt).filter((u) => u._meta?.terminal_output && u._meta.terminal_output.data !== "");
    assert.ok(live.length >= 3, `only ${live.length} terminal_output updates before terminal_exit`);
    for (const u of updates.filter((u) => u._meta?.terminal_output)) {
      assert.equal(u._meta.terminal_output.terminal_id, "b1");
      assert.equal(u.content, undefined, "a terminal update carries content");
    }
    const final = updates[exitAt];
    assert.equal(final.status, "completed");
    assert.equal(final._meta.terminal_exit.exit_code, 0);
    const output = updates.map((u) => u._meta?.terminal_output?.data ?? "").join("");
    assert.equal(output, "line 1\nline 2\nline 3\nline 4\nline 5\n");
    checkInvariants(a);
  });

  test("a failed command is failed in every client; without the terminal convention its text ends with the exit (issue 17.1)", { timeout: TIMEOUT }, async () => {
    const command = "echo out; echo err >&2; exit 3";
    const plain = { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "plain", version: "1" } };
    for (const [client, initialize] of [["plain", plain], ["zed", undefined]]) {
      const a = await startAgent({
        args: ["--permission", "full-access"],
        initialize,
        script: [{ tool_calls: [{ id: "b1", name: "bash", arguments: { command } }] }, { text: "ok" }],
      });
      const sid = await a.newSession();
      assert.equal((await a.prompt(sid, "fail")).stopReason, "end_turn");
      const last = callUpdates(a, "b1").at(-1);
      assert.equal(last.status, "failed", `${client}: final status`);
      assert.equal(last._meta?.["dsh-acp"]?.stopped, undefined, `${client}: a command that failed by itself is not marked stopped`);
      if (client === "plain") {
        const text = last.content?.map((c) => c.content?.text ?? "").join("\n");
        assert.ok(text.endsWith("```\nexit code 3"), `${client}: the text ${JSON.stringify(text)} does not end with the exit`);
        assert.match(text, /out\n\[stderr\]\nerr/);
      } else {
        assert.equal(last._meta?.terminal_exit?.exit_code, 3, `${client}: terminal_exit`);
      }
      checkInvariants(a);
    }
  });

  test("cancel mid-command: exactly one cancelled, then the process group is gone", { timeout: TIMEOUT }, async (t) => {
    const command = "echo $$ > pids; sleep 30 & echo $! >> pids; sleep 30 & echo $! >> pids; wait";
    const a = await startAgent({
      args: ["--permission", "full-access"],
      script: [{ tool_calls: [{ id: "b1", name: "bash", arguments: { command } }] }, { text: "never reached" }],
    });
    const sid = await a.newSession();
    const stops = [];
    const pending = a.prompt(sid, "sleep").then((r) => {
      stops.push(r.stopReason);
      return r;
    });
    const pidFile = path.join(a.workspace, "pids");
    const pids = await waitFor(() => readPids(pidFile, 3), { timeoutMs: HANG_GUARD, what: "the pid file" });
    // Whatever happens below, leave no sleeping process behind.
    killAfter(t, pids);
    for (const pid of pids) assert.ok(pidAlive(pid), `pid ${pid} is not running before the cancel`);

    const cancelledAt = Date.now();
    await a.agent.notify("session/cancel", { sessionId: sid });
    const res = await pending;
    assert.equal(res.stopReason, "cancelled");
    await waitFor(() => pids.every((p) => !pidAlive(p)), {
      timeoutMs: HANG_GUARD,
      intervalMs: 10,
      what: `pids ${pids.join(", ")} to be gone`,
    });
    t.diagnostic(`cancelled answered and pids gone ${Date.now() - cancelledAt} ms after session/cancel`);

    // Exactly one stop reason, and nothing more for the session afterwards.
    await sleep(300);
    assert.deepEqual(stops, ["cancelled"]);
    const msgs = checkInvariants(a);
    assert.equal(msgs.filter((m) => m.result && "stopReason" in m.result).length, 1);
    const ups = callUpdates(a, "b1");
    assert.equal(ups[0].sessionUpdate, "tool_call");
    assert.notEqual(ups.at(-1).status, "completed");
    // The final update says structurally that the cancel stopped the call.
    assert.equal(ups.at(-1).status, "failed");
    assert.deepEqual(ups.at(-1)._meta?.["dsh-acp"], { stopped: true });

    // The session still serves the next prompt.
    const next = await a.prompt(sid, "again");
    assert.equal(next.stopReason, "end_turn");
  });

  test("stdout carries only JSON-RPC frames, and stdin EOF exits 0", { timeout: TIMEOUT }, async () => {
    const a = await startAgent({
      args: ["--log-level", "debug"],
      script: [
        {
          reasoning: "Think first.",
          text: "Let me write, read and run.",
          tool_calls: [
            { id: "w1", name: "write", arguments: { file_path: "a.txt", content: "alpha\n" } },
            { id: "t1", name: "todo_write", arguments: { todos: [{ content: "check", status: "in_progress" }] } },
          ],
        },
        { tool_calls: [{ id: "r1", name: "read", arguments: { file_path: "a.txt" } }] },
        { tool_calls: [{ id: "b1", name: "bash", arguments: { command: "echo to-stdout; echo to-stderr >&2" } }] },
        { tool_calls: [{ id: "x1", name: "no_such_tool", arguments: "{not json" }] },
        { text: "All done." },
      ],
      permission: () => "allow-once",
    });
    const sid = await a.newSession();
    const res = await a.prompt(sid, "do things");
    assert.equal(res.stopReason, "end_turn");
    const kinds = new Set(a.updates().map((u) => u.sessionUpdate));
    for (const k of ["agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "plan"])
      assert.ok(kinds.has(k), `no ${k} update`);

    const exit = await a.closeStdin();
    assert.deepEqual(exit, { code: 0, signal: null }, `exit after stdin EOF; stderr:\n${a.stderr}`);
    const msgs = checkInvariants(a);
    assert.ok(msgs.length > 5);
    assert.match(a.stderr, /level=/, "the logs went somewhere other than stderr");
    const text = Buffer.concat(a.stdoutChunks).toString("utf8");
    assert.ok(text.endsWith("\n"), "the last frame is not newline-terminated");
  });
});
