// The latency probe (issue 11): for each prompt, how long after dsh-acp
// writes the prompt's first agent_message_chunk to its stdout the text
// shows in the chat webview. The agent's side is the time the stdout relay
// (stamp.mjs) read the frame; the page's side is the time a
// MutationObserver, installed in the webview before the prompt is sent,
// saw the first new answer with text in the DOM, and the start of the
// next animation frame after it; on the way, the time the webview's window
// received the first agent_message_chunk message. All are Date.now() on
// the same machine.
// The numbers are recorded, never asserted.
import { readFile, writeFile } from "node:fs/promises";

/** What a probe's marks live under in the webview's window. */
const GLOBAL = "__dshE2eLatency";

/**
 * A probe's marks (Date.now() values, null until seen) and the answer's text.
 * @typedef {object} ProbeMarks
 * @property {number} installed
 * @property {number | null} received the webview's window got the first agent_message_chunk
 * @property {number | null} dom the first new answer with text was in the DOM
 * @property {number | null} frame the next animation frame after that
 * @property {string | null} text that answer's text
 */

/**
 * The webview's window, holding the probes by key under GLOBAL.
 * @typedef {Window & { [GLOBAL]?: Record<string, ProbeMarks> }} ProbedWindow
 */

/**
 * A prompt's probe as the scenario collected it: its marks, or why it failed.
 * @typedef {{ prompt: string, probe?: ProbeMarks | null, error?: string }} Probe
 */

/**
 * A prompt's first answer chunk in the agent's output: when the relay read it, and its text.
 * @typedef {{ time: number | null, text: string }} Chunk
 */

/**
 * What firstChunks reads of an ACP frame dsh-acp wrote.
 * @typedef {{ method?: unknown, params?: { update?: { sessionUpdate?: unknown, content?: { text?: unknown } } }, result?: { stopReason?: unknown } }} Frame
 */

/**
 * One prompt's line of latency.json: the marks, the differences to the
 * agent's chunk (ms), and what went wrong.
 * @typedef {object} LatencyEntry
 * @property {string} prompt
 * @property {number | null} chunkAt
 * @property {string | null} chunkText
 * @property {number | null} receivedAt
 * @property {number | null} domAt
 * @property {number | null} frameAt
 * @property {string | null} domText
 * @property {number | null} receivedMs
 * @property {number | null} domMs
 * @property {number | null} frameMs
 * @property {string[]} [problems]
 */

/**
 * Installs a probe named key in the chat webview (chat is its
 * FrameLocator): it marks the first agent answer (data-testid
 * message-agent) that was not in the DOM yet and has text, and the first
 * agent_message_chunk the webview's window receives (a capturing listener,
 * so before the webview's own).
 * @param {import("playwright-core").FrameLocator} chat
 * @param {string} key
 * @returns {Promise<void>}
 */
export async function installProbe(chat, key) {
  await chat.locator("body").evaluate(
    (body, { key, name }) => {
      const before = new Set(body.querySelectorAll('[data-testid="message-agent"]'));
      /** @type {ProbeMarks} */
      const probe = { installed: Date.now(), received: null, dom: null, frame: null, text: null };
      const probed = /** @type {ProbedWindow} */ (window);
      (probed[name] ??= {})[key] = probe;
      /** @param {MessageEvent<{ type?: unknown, update?: { sessionUpdate?: unknown } } | null | undefined>} ev */
      const onMessage = (ev) => {
        if (ev.data?.type !== "update" || ev.data.update?.sessionUpdate !== "agent_message_chunk") return;
        probe.received = Date.now();
        window.removeEventListener("message", onMessage, true);
      };
      window.addEventListener("message", onMessage, true);
      const observer = new MutationObserver(() => {
        for (const el of body.querySelectorAll('[data-testid="message-agent"]')) {
          if (before.has(el) || !el.textContent.trim()) continue;
          probe.dom = Date.now();
          probe.text = el.textContent;
          observer.disconnect();
          requestAnimationFrame(() => (probe.frame = Date.now()));
          return;
        }
      });
      observer.observe(body, { childList: true, subtree: true, characterData: true });
    },
    { key, name: /** @type {typeof GLOBAL} */ (GLOBAL) },
  );
}

/**
 * Reads probe key's marks, waiting up to timeoutMs for the animation frame
 * after the text appeared; a probe that saw nothing has dom null.
 * @param {import("playwright-core").FrameLocator} chat
 * @param {string} key
 * @param {number} [timeoutMs]
 * @returns {Promise<ProbeMarks | null>}
 */
export async function readProbe(chat, key, timeoutMs = 2000) {
  return chat.locator("body").evaluate(
    async (_, { key, name, timeoutMs }) => {
      const probe = /** @type {ProbedWindow} */ (window)[name]?.[key];
      if (!probe) return null;
      const deadline = Date.now() + timeoutMs;
      while (probe.dom !== null && probe.frame === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return { ...probe };
    },
    { key, name: /** @type {typeof GLOBAL} */ (GLOBAL), timeoutMs },
  );
}

/**
 * The first agent_message_chunk of each prompt in the relay's output
 * (outPath and outPath.times): a prompt's turn ends with its response,
 * the one frame whose result has a stopReason. Returns one entry per
 * prompt answered or under way: its chunk's time and text, or null.
 * @param {string} outPath
 * @returns {Promise<(Chunk | null)[]>}
 */
export async function firstChunks(outPath) {
  const frames = (await readFile(outPath, "utf8")).split("\n");
  const times = (await readFile(`${outPath}.times`, "utf8")).split("\n").filter((l) => l).map(Number);
  /** @type {(Chunk | null)[]} */
  const turns = [null];
  frames.forEach((line, i) => {
    if (!line.trim()) return;
    /** @type {Frame} */
    let msg;
    try {
      /** @type {unknown} */
      const parsed = JSON.parse(line);
      msg = /** @type {Frame} */ (parsed);
    } catch {
      return;
    }
    const update = msg.method === "session/update" ? msg.params?.update : undefined;
    if (update?.sessionUpdate === "agent_message_chunk" && turns.at(-1) === null) {
      turns[turns.length - 1] = { time: times[i] ?? null, text: typeof update.content?.text === "string" ? update.content.text : "" };
    }
    if (msg.result?.stopReason !== undefined) turns.push(null);
  });
  return turns;
}

/**
 * Joins the page's probes (one per prompt, in order) with the agent's
 * first chunks, and writes the result to jsonPath. Returns the lines to
 * print.
 * @param {{ probes: readonly Probe[], outPath: string, jsonPath: string }} options
 * @returns {Promise<string[]>}
 */
export async function latencyReport({ probes, outPath, jsonPath }) {
  /** @type {(Chunk | null)[]} */
  let chunks = [];
  /** @type {string | undefined} */
  let error;
  try {
    chunks = await firstChunks(outPath);
  } catch (err) {
    error = `cannot read the agent's stamped output: ${err instanceof Error ? err.message : String(err)}`;
  }
  const prompts = probes.map(({ prompt, probe, error: probeError }, i) => {
    const chunk = chunks[i] ?? null;
    /** @type {LatencyEntry} */
    const entry = {
      prompt,
      chunkAt: chunk?.time ?? null,
      chunkText: chunk?.text ?? null,
      receivedAt: probe?.received ?? null,
      domAt: probe?.dom ?? null,
      frameAt: probe?.frame ?? null,
      domText: probe?.text ?? null,
      receivedMs: null,
      domMs: null,
      frameMs: null,
    };
    if (entry.chunkAt !== null && entry.receivedAt !== null) entry.receivedMs = entry.receivedAt - entry.chunkAt;
    if (entry.chunkAt !== null && entry.domAt !== null) entry.domMs = entry.domAt - entry.chunkAt;
    if (entry.chunkAt !== null && entry.frameAt !== null) entry.frameMs = entry.frameAt - entry.chunkAt;
    /** @type {string[]} */
    const problems = [];
    if (probeError) problems.push(`probe failed: ${probeError}`);
    if (!chunk) problems.push("no agent_message_chunk for this prompt in the agent's output");
    if (!probe?.dom) problems.push("the webview showed no new answer while the probe watched");
    if (chunk?.text && probe?.text && !probe.text.trim().startsWith(chunk.text.trim().split(/\s+/)[0] ?? "")) {
      problems.push("the answer the webview showed does not start with the chunk's text");
    }
    if (problems.length) entry.problems = problems;
    return entry;
  });
  const measured = prompts.filter((p) => p.domMs !== null);
  /** @param {"receivedMs" | "domMs" | "frameMs"} key @returns {{ n: number, median: number, max: number } | null} */
  const stats = (key) => {
    const v = measured.map((p) => p[key]).filter((x) => x !== null).sort((a, b) => a - b);
    // The middle one, or the two in the middle of an even count; and the largest.
    const lo = v[(v.length - 1) >> 1];
    const hi = v[v.length >> 1];
    const max = v[v.length - 1];
    if (lo === undefined || hi === undefined || max === undefined) return null;
    return { n: v.length, median: (lo + hi) / 2, max };
  };
  const result = {
    what: "ms from the stdout relay reading dsh-acp's first agent_message_chunk of a prompt to the webview window receiving it (receivedMs), its text in the chat webview's DOM (domMs) and the next animation frame (frameMs)",
    budgetMs: 50,
    prompts,
    received: stats("receivedMs"),
    dom: stats("domMs"),
    frame: stats("frameMs"),
    ...(error ? { error } : {}),
  };
  await writeFile(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  const lines = prompts.map(
    (p, i) =>
      `latency prompt ${i + 1}: chunk → DOM ${p.domMs ?? "?"} ms (webview got it at ${p.receivedMs ?? "?"} ms, next frame at ${p.frameMs ?? "?"} ms)` +
      (p.problems ? ` (${p.problems.join("; ")})` : ""),
  );
  if (error) lines.push(`latency: ${error}`);
  return lines;
}
