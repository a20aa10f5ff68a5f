// The shared test corpus (testdata/): the cases of testdata/cases.json, how
// to lay one out for startAgent, and the checks every runner applies — the
// same ones the Go runner applies (internal/corpus/verify.go).

import { readFileSync, writeFileSync, existsSync, lstatSync, mkdirSync, symlinkSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { MODULE_ROOT, ZED_INITIALIZE } from "./helpers.mjs";

/** The corpus directory. */
export const CORPUS_DIR = path.join(MODULE_ROOT, "testdata");

/** Every case of testdata/cases.json. */
export function loadCases() {
  return JSON.parse(readFileSync(path.join(CORPUS_DIR, "cases.json"), "utf8"));
}

/** The initialize params of a case's client. */
export function initializeFor(c) {
  return c.client === "zed" ? ZED_INITIALIZE : { protocolVersion: 1, clientCapabilities: {} };
}

/** Replaces $WS, $OUTSIDE and $ROOT with the layout's paths. */
export function expand(text, layout) {
  return text
    .replaceAll("$WS", layout.workspace)
    .replaceAll("$OUTSIDE", layout.outside)
    .replaceAll("$ROOT", layout.root);
}

/** The startAgent options that run case c. */
export function agentOptions(c) {
  const setup = c.setup ?? {};
  const answer = c.permission || "reject-once";
  return {
    script: readFileSync(path.join(CORPUS_DIR, c.script), "utf8"),
    args: c.preset ? ["--permission", c.preset] : [],
    files: setup.files ?? {},
    env: setup.env ?? {},
    buffers: c.client === "zed" ? setup.buffers ?? {} : {},
    initialize: initializeFor(c),
    permission: () => (answer === "cancelled" ? { outcome: { outcome: "cancelled" } } : answer),
    setup(root, workspace) {
      const layout = { root, workspace, outside: path.join(root, "outside") };
      mkdirSync(layout.outside);
      for (const [rel, content] of Object.entries(setup.outside ?? {})) {
        const p = path.join(layout.outside, rel);
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, content);
      }
      for (const name of setup.fifos ?? []) execFileSync("mkfifo", [path.join(workspace, name)]);
      for (const [link, target] of Object.entries(setup.symlinks ?? {}))
        symlinkSync(expand(target, layout), path.join(workspace, link));
    },
  };
}

/** The layout of a started agent. */
export function layoutOf(a) {
  return { root: a.root, workspace: a.workspace, outside: path.join(a.root, "outside") };
}

/** Whether v is a JSON object (not an array, not null). */
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

/** Canonical JSON (sorted keys), for comparing values. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/**
 * Checks a run of case c: msgs are the agent's stdout frames (parsed),
 * stopReasons the prompts' answers. Returns a list of failures.
 */
export function verify(c, layout, msgs, stopReasons) {
  const fails = [];
  const x = c.expect;
  if (canonical(stopReasons) !== canonical(x.stopReasons))
    fails.push(`stop reasons ${JSON.stringify(stopReasons)}, want ${JSON.stringify(x.stopReasons)}`);
  fails.push(...checkOrder(msgs));

  const calls = new Map();
  let permissions = 0;
  let fsWrites = 0;
  for (const m of msgs) {
    if (m.method === "session/request_permission" && m.id !== undefined) permissions++;
    if (m.method === "fs/write_text_file" && m.id !== undefined) fsWrites++;
    const u = m.method === "session/update" ? m.params.update : undefined;
    if (!u?.toolCallId) continue;
    if (!calls.has(u.toolCallId)) calls.set(u.toolCallId, []);
    calls.get(u.toolCallId).push(u);
    if (u.sessionUpdate === "tool_call" && !isObject(u.rawInput))
      fails.push(`tool_call ${u.toolCallId}: rawInput ${JSON.stringify(u.rawInput)} is not an object`);
  }
  const updatesOf = (id) => calls.get(id) ?? [];
  const textOf = (id) => updatesOf(id).map((u) => JSON.stringify(u)).join("\n");
  if (x.permissions !== undefined && permissions !== x.permissions)
    fails.push(`${permissions} permission requests, want ${x.permissions}`);
  if (x.fsWrites !== undefined && fsWrites !== x.fsWrites)
    fails.push(`${fsWrites} fs/write_text_file requests, want ${x.fsWrites}`);
  for (const [id, want] of Object.entries(x.status ?? {})) {
    const got = updatesOf(id).reduce((s, u) => u.status ?? s, "");
    if (got !== want) fails.push(`call ${id}: final status ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  for (const [id, subs] of Object.entries(x.includes ?? {}))
    for (const s of subs) if (!textOf(id).includes(s)) fails.push(`call ${id}: updates do not mention ${JSON.stringify(s)}: ${textOf(id)}`);
  for (const [id, subs] of Object.entries(x.excludes ?? {}))
    for (const s of subs) if (textOf(id).includes(s)) fails.push(`call ${id}: updates mention ${JSON.stringify(s)}`);
  for (const s of x.excludesAll ?? [])
    msgs.forEach((m, i) => {
      if (JSON.stringify(m).includes(s)) fails.push(`frame ${i + 1} mentions ${JSON.stringify(s)}`);
    });
  for (const [id, want] of Object.entries(x.diffOldText ?? {})) {
    const found = updatesOf(id).some((u) => (u.content ?? []).some((b) => b.type === "diff" && b.oldText === want));
    if (!found) fails.push(`call ${id}: no diff with oldText ${JSON.stringify(want)}: ${textOf(id)}`);
  }
  for (const [id, want] of Object.entries(x.rawInput ?? {})) {
    const got = updatesOf(id).find((u) => u.sessionUpdate === "tool_call")?.rawInput;
    if (canonical(got) !== canonical(want)) fails.push(`call ${id}: rawInput ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  for (const p of x.absent ?? []) {
    const abs = expand(p, layout);
    let exists = true;
    try {
      lstatSync(abs);
    } catch {
      exists = false;
    }
    if (exists) fails.push(`${abs} exists`);
  }
  for (const [p, want] of Object.entries(x.files ?? {})) {
    const abs = expand(p, layout);
    const got = existsSync(abs) ? readFileSync(abs, "utf8") : undefined;
    if (got !== want) fails.push(`${abs}: content ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  return fails;
}

/**
 * Requests to the client come after what was queued before them: each is
 * sent while a tool call is open, and no message or thought chunk arrives
 * after it until an open call ends.
 */
function checkOrder(msgs) {
  const fails = [];
  const open = new Set();
  let waiting = "";
  msgs.forEach((m, i) => {
    if (m.method === "session/update") {
      const u = m.params.update;
      if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") {
        if (u.sessionUpdate === "tool_call") open.add(u.toolCallId);
        if (u.status === "completed" || u.status === "failed") {
          open.delete(u.toolCallId);
          waiting = "";
        }
      } else if (
        (u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk") &&
        waiting
      ) {
        fails.push(`frame ${i + 1}: a ${u.sessionUpdate} arrived after ${waiting}, before its call ended`);
      }
      return;
    }
    if (!m.method || m.id === undefined) return;
    if (open.size === 0) fails.push(`frame ${i + 1}: ${m.method} sent while no tool call was open (its tool_call had not arrived)`);
    waiting = m.method;
  });
  return fails;
}

/**
 * The golden text of a run: its session/update lines as written, runs of
 * text chunks merged, a command's last live output folded into its final
 * update, with the layout's paths, the session id and a title's time
 * replaced (internal/corpus/golden.go).
 */
export function goldenUpdates(lines, layout, sessionId) {
  const swaps = [
    [layout.workspace, "$WS"],
    [layout.outside, "$OUTSIDE"],
    [layout.root, "$ROOT"],
    [JSON.stringify(sessionId), '"$SID"'],
  ];
  const isTurnUpdate = (line) => {
    const m = JSON.parse(line);
    return m.method === "session/update" && m.params.update.sessionUpdate !== "available_commands_update";
  };
  return foldLiveOutput(mergeTextRuns(lines.filter(isTurnUpdate)))
    .map((line) => swaps.reduce((s, [from, to]) => s.replaceAll(from, to), line) + "\n")
    .map((line) => line.replace(/"updatedAt":"[^"]*"/g, '"updatedAt":"$$TIME"'))
    .join("");
}

const CHUNK_KINDS = new Set(["agent_message_chunk", "agent_thought_chunk", "user_message_chunk"]);

/** The frame of line when it is exactly a plain text chunk, else null. */
function plainChunk(line) {
  const m = JSON.parse(line);
  const u = m.params?.update;
  if (!u || !CHUNK_KINDS.has(u.sessionUpdate) || u.content?.type !== "text" || typeof u.content.text !== "string") return null;
  const plain = {
    jsonrpc: m.jsonrpc,
    method: m.method,
    params: { sessionId: m.params.sessionId, update: { sessionUpdate: u.sessionUpdate, content: { type: "text", text: u.content.text } } },
  };
  return JSON.stringify(plain) === line ? plain : null;
}

/**
 * Each run of consecutive plain text chunks of one kind and session as one
 * frame, as the agent's outbox merges chunks that queue up while it writes:
 * how a burst is split depends on the scheduler, what it says does not
 * (mergeTextRuns in internal/corpus/textruns.go).
 */
function mergeTextRuns(lines) {
  const out = [];
  for (let i = 0; i < lines.length; ) {
    const first = plainChunk(lines[i]);
    let j = i + 1;
    if (first) {
      const parts = [first.params.update.content.text];
      for (; j < lines.length; j++) {
        const next = plainChunk(lines[j]);
        if (!next || next.params.sessionId !== first.params.sessionId || next.params.update.sessionUpdate !== first.params.update.sessionUpdate) break;
        parts.push(next.params.update.content.text);
      }
      if (j - i > 1) {
        first.params.update.content.text = parts.join("");
        out.push(JSON.stringify(first));
        i = j;
        continue;
      }
    }
    out.push(lines[i]);
    i = j;
  }
  return out;
}

/**
 * Each live-output update of a tool call (only Zed's terminal_output, or
 * only the console block) folded into the call's final update when that
 * comes next, as the outbox does when both are queued before it writes
 * (foldLiveOutput in internal/corpus/liveoutput.go).
 */
function foldLiveOutput(lines) {
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const folded = i + 1 < lines.length ? fold(lines[i], lines[i + 1]) : null;
    if (folded) lines[i + 1] = folded;
    else out.push(lines[i]);
  }
  return out;
}

/** final with live folded into it, or null when live is not its live output. */
function fold(live, final) {
  const l = JSON.parse(live);
  const f = JSON.parse(final);
  const lu = l.params?.update;
  const fu = f.params?.update;
  if (!lu || !fu || lu.sessionUpdate !== "tool_call_update" || fu.sessionUpdate !== "tool_call_update") return null;
  if (lu.toolCallId !== fu.toolCallId || lu.status !== undefined || !["completed", "failed"].includes(fu.status)) return null;
  const keys = Object.keys(lu);
  if (keys.length === 3 && lu.content !== undefined) return final;
  if (keys.length !== 3 || lu._meta === undefined) return null;
  const lo = lu._meta.terminal_output;
  const fo = fu._meta?.terminal_output;
  if (Object.keys(lu._meta).length !== 1 || !lo || !fo) return null;
  fo.data = (lo.data ?? "") + (fo.data ?? "");
  return JSON.stringify(f);
}

/** The golden file's text of case c. */
export function readGolden(c) {
  return readFileSync(path.join(CORPUS_DIR, c.golden), "utf8");
}
