// The latency probe (issue 11): for each prompt, how long after dsh-acp
// writes the prompt's first agent_message_chunk to its stdout the text
// shows in the chat webview. The agent's side is the time the stdout relay
// (stamp.mjs) read the frame; the page's side is the time a
// MutationObserver, installed in the webview before the prompt is sent,
// saw the first new answer with text in the DOM, and the start of the
// next animation frame after it; on the way, the time the webview's window
// received the first agent_message_chunk message. All are Date.now() on
// the same machine. On the way between the two it also breaks the time
// into hops: when the extension host's ACP client got the frame and
// handed it to the chat (the extension's "chunk" events in the file
// DSH_VSCODE_MARKS names, see src/client/chunkMarks.ts), and which long animation frames
// (50 ms or more, Chromium's long-animation-frame entries, with their
// scripts) the workbench's window and the webview's had in between.
// The numbers are recorded, never asserted.
import { readFile, writeFile } from "node:fs/promises";
import { readResults } from "./results.mjs";

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
 * @property {LongFrame[]} [long] the window's long animation frames since installed (the webview's and the workbench's)
 */

/**
 * A long animation frame (Chromium's long-animation-frame entry) a window had: when it started (Date.now() terms),
 * how long it took and blocked input, how much of that was its rendering
 * (from renderStart: rAF callbacks, style, layout and paint) and its style
 * and layout alone, and its longest scripts.
 * @typedef {{ start: number, duration: number, blocking: number, render: number, layout: number, scripts: { invoker: string, source: string, duration: number }[], window?: "workbench" | "webview" }} LongFrame
 */

/**
 * What a window watching its long frames keeps under GLOBAL.
 * @typedef {{ frames: LongFrame[], observer: PerformanceObserver | null }} FrameWatch
 */

/**
 * The workbench's window, with its long frames watched by key under GLOBAL.
 * @typedef {Window & { [GLOBAL]?: Record<string, FrameWatch> }} WatchedWindow
 */

/**
 * The extension host's marks of a prompt's first answer chunk (a "chunk" event of the marks log).
 * @typedef {{ arrivedAt: number, appliedAt: number, settledAt: number }} HostMarks
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
 * @property {number | null} hostArrivedMs the extension host's ACP client got the frame
 * @property {number | null} hostAppliedMs its update was handed to the chat (posted to the webview)
 * @property {number | null} hostSettledMs the extension had applied it
 * @property {{ window: "workbench" | "webview", startMs: number, duration: number, blocking: number, render: number, layout: number, scripts: LongFrame["scripts"] }[]} longFrames
 *   the long animation frames that overlapped the time from the chunk to the DOM, startMs relative to the chunk
 * @property {string[]} [problems]
 */

/**
 * Starts keeping the window's long animation frames under GLOBAL[key]
 * (run in the window by a locator's evaluate, on its body: it uses
 * nothing from outside). A window without the long-animation-frame entry
 * keeps none.
 * @param {Element} _body
 * @param {{ key: string, name: typeof GLOBAL }} args
 * @returns {void}
 */
function watchFrames(_body, { key, name }) {
  const watched = /** @type {WatchedWindow} */ (window);
  /** @type {FrameWatch} */
  const watch = { frames: [], observer: null };
  (watched[name] ??= {})[key] = watch;
  if (!PerformanceObserver.supportedEntryTypes.includes("long-animation-frame")) return;
  watch.observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const e = /** @type {PerformanceEntry & { blockingDuration?: number, renderStart?: number, styleAndLayoutStart?: number, scripts?: { invoker?: string, sourceURL?: string, sourceFunctionName?: string, duration?: number }[] }} */ (entry);
      const scripts = [...(e.scripts ?? [])]
        .sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))
        .slice(0, 3)
        .map((sc) => ({ invoker: sc.invoker ?? "", source: `${(sc.sourceURL ?? "").split("/").slice(-2).join("/")}${sc.sourceFunctionName ? ` ${sc.sourceFunctionName}` : ""}`, duration: Math.round(sc.duration ?? 0) }));
      const end = e.startTime + e.duration;
      /** @param {number | undefined} from */
      const tail = (from) => (from ? Math.round(end - from) : 0);
      watch.frames.push({ start: Math.round(performance.timeOrigin + e.startTime), duration: Math.round(e.duration), blocking: Math.round(e.blockingDuration ?? 0), render: tail(e.renderStart), layout: tail(e.styleAndLayoutStart), scripts });
    }
  });
  watch.observer.observe({ type: "long-animation-frame" });
}

/**
 * Stops watching the window's long frames under GLOBAL[key] and returns
 * them (run in the window as watchFrames is).
 * @param {Element} _body
 * @param {{ key: string, name: typeof GLOBAL }} args
 * @returns {LongFrame[]}
 */
function watchedFrames(_body, { key, name }) {
  const watch = /** @type {WatchedWindow} */ (window)[name]?.[key];
  if (!watch) return [];
  watch.observer?.disconnect();
  return watch.frames;
}

/**
 * Installs a probe named key in the chat webview (chat is its
 * FrameLocator): it marks the first agent answer (data-testid
 * message-agent) that was not in the DOM yet and has text, and the first
 * agent_message_chunk the webview's window receives (a capturing listener,
 * so before the webview's own). It also keeps the long animation frames
 * of the webview's window and, given the workbench's page, of its.
 * @param {import("playwright-core").FrameLocator} chat
 * @param {string} key
 * @param {import("playwright-core").Page} [page]
 * @returns {Promise<void>}
 */
export async function installProbe(chat, key, page) {
  const args = { key, name: /** @type {typeof GLOBAL} */ (GLOBAL) };
  await page?.locator("body").evaluate(watchFrames, args);
  // The webview's long frames under a key of their own (the probe's marks are under key).
  await chat.locator("body").evaluate(watchFrames, { ...args, key: `${key} frames` });
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
    args,
  );
}

/**
 * Reads probe key's marks, waiting up to timeoutMs for the animation frame
 * after the text appeared; a probe that saw nothing has dom null. With
 * the workbench's page, the long frames of it and of the webview come too.
 * @param {import("playwright-core").FrameLocator} chat
 * @param {string} key
 * @param {number} [timeoutMs]
 * @param {import("playwright-core").Page} [page]
 * @returns {Promise<ProbeMarks | null>}
 */
export async function readProbe(chat, key, timeoutMs = 2000, page) {
  const marks = await chat.locator("body").evaluate(
    async (_, { key, name, timeoutMs }) => {
      const probe = /** @type {ProbedWindow} */ (window)[name]?.[key];
      if (!probe) return null;
      const deadline = Date.now() + timeoutMs;
      while (probe.dom !== null && probe.frame === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return { ...probe };
    },
    { key, name: /** @type {typeof GLOBAL} */ (GLOBAL), timeoutMs },
  );
  if (!marks) return marks;
  const args = { key, name: /** @type {typeof GLOBAL} */ (GLOBAL) };
  const webview = await chat.locator("body").evaluate(watchedFrames, { ...args, key: `${key} frames` });
  const workbench = page ? await page.locator("body").evaluate(watchedFrames, args) : [];
  /** @type {LongFrame[]} */
  const long = [...webview.map((f) => ({ ...f, window: /** @type {const} */ ("webview") })), ...workbench.map((f) => ({ ...f, window: /** @type {const} */ ("workbench") }))];
  return { ...marks, long };
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
 * The extension host's marks of each prompt's first answer chunk, in
 * order: the "chunk" events of the marks log (DSH_VSCODE_MARKS; none without one).
 * @param {string | undefined} marksPath
 * @returns {Promise<HostMarks[]>}
 */
async function hostMarks(marksPath) {
  if (!marksPath) return [];
  /** @type {HostMarks[]} */
  const marks = [];
  for (const e of await readResults(marksPath)) {
    const { arrivedAt, appliedAt, settledAt } = e;
    if (e.event === "chunk" && typeof arrivedAt === "number" && typeof appliedAt === "number" && typeof settledAt === "number") marks.push({ arrivedAt, appliedAt, settledAt });
  }
  return marks;
}

/**
 * Joins the page's probes (one per prompt, in order) with the agent's
 * first chunks and the extension host's marks of them (from the marks
 * log at marksPath, if given: the first mark at or after the chunk's
 * time is its), and writes the result to jsonPath. Returns the lines to
 * print.
 * @param {{ probes: readonly Probe[], outPath: string, jsonPath: string, marksPath?: string }} options
 * @returns {Promise<string[]>}
 */
export async function latencyReport({ probes, outPath, jsonPath, marksPath }) {
  /** @type {(Chunk | null)[]} */
  let chunks = [];
  /** @type {string | undefined} */
  let error;
  try {
    chunks = await firstChunks(outPath);
  } catch (err) {
    error = `cannot read the agent's stamped output: ${err instanceof Error ? err.message : String(err)}`;
  }
  /** @type {HostMarks[]} */
  let host = [];
  try {
    host = await hostMarks(marksPath);
  } catch (err) {
    error = `cannot read the extension's marks log: ${err instanceof Error ? err.message : String(err)}`;
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
      hostArrivedMs: null,
      hostAppliedMs: null,
      hostSettledMs: null,
      longFrames: [],
    };
    const at = entry.chunkAt;
    if (at !== null) {
      const mark = host.find((m) => m.arrivedAt >= at);
      if (mark) {
        entry.hostArrivedMs = mark.arrivedAt - at;
        entry.hostAppliedMs = mark.appliedAt - at;
        entry.hostSettledMs = mark.settledAt - at;
      }
      const until = entry.domAt ?? at;
      entry.longFrames = (probe?.long ?? [])
        .filter((f) => f.start <= until && f.start + f.duration >= at)
        .map((f) => ({ window: f.window ?? "webview", startMs: f.start - at, duration: f.duration, blocking: f.blocking, render: f.render, layout: f.layout, scripts: f.scripts }));
    }
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
    what: "ms from the stdout relay reading dsh-acp's first agent_message_chunk of a prompt to the webview window receiving it (receivedMs), its text in the chat webview's DOM (domMs) and the next animation frame (frameMs); on the way, the extension host's ACP client getting it (hostArrivedMs) and posting it to the webview (hostAppliedMs), and the long animation frames of the workbench's and the webview's windows in between (longFrames)",
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
      `; extension host got it at ${p.hostArrivedMs ?? "?"} ms, posted it at ${p.hostAppliedMs ?? "?"} ms` +
      (p.longFrames.length ? `; long frames: ${p.longFrames.map((f) => `${f.window} ${f.startMs} ms for ${f.duration} ms (rendering ${f.render} ms)`).join(", ")}` : "") +
      (p.problems ? ` (${p.problems.join("; ")})` : ""),
  );
  if (error) lines.push(`latency: ${error}`);
  return lines;
}

/** What a Chromium trace of a probed prompt records: the main thread's tasks and the V8 CPU profile (which script ran). */
const TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "v8.execute", "blink.user_timing", "disabled-by-default-v8.cpu_profiler"];

/**
 * Starts a Chromium performance trace of page's renderer (the workbench
 * and its webviews share its main thread), written to path when stopped.
 * @param {import("playwright-core").Page} page
 * @param {string} path
 * @returns {Promise<void>}
 */
export async function startTrace(page, path) {
  await page.context().browser()?.startTracing(page, { path, categories: TRACE_CATEGORIES });
}

/**
 * Stops the trace startTrace began, writing it.
 * @param {import("playwright-core").Page} page
 * @returns {Promise<void>}
 */
export async function stopTrace(page) {
  await page.context().browser()?.stopTracing();
}
