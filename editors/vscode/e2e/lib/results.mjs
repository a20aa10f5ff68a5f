// The extension's results hook: with DSH_VSCODE_RESULTS set, the extension
// appends one JSON object per line (turn, permission, review, error
// events; see editors/vscode/TESTING.md). The test waits on these lines.

/**
 * One line of the results file: its event and the fields the extension
 * wrote with it (stopReason, changed, outcome, action, paths, message).
 * @typedef {{ readonly event: string } & Readonly<Record<string, unknown>>} ResultEvent
 */
import { readFile } from "node:fs/promises";
import { isErrno } from "./procs.mjs";
import { UI_TIMEOUT } from "./workbench.mjs";

/**
 * Reads every event written so far (none when the file does not exist yet).
 * @param {string} path
 * @returns {Promise<ResultEvent[]>}
 */
export async function readResults(path) {
  const text = await readFile(path, "utf8").catch((/** @type {unknown} */ err) => {
    if (isErrno(err, "ENOENT")) return "";
    throw err;
  });
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map(parseEvent);
}

/**
 * One line of the results file as an event; a line that is not one fails.
 * @param {string} line
 * @returns {ResultEvent}
 */
function parseEvent(line) {
  /** @type {unknown} */
  const v = JSON.parse(line);
  if (v === null || typeof v !== "object" || typeof (/** @type {{ event?: unknown }} */ (v).event) !== "string") {
    throw new Error(`not a results event: ${line}`);
  }
  return /** @type {ResultEvent} */ (v);
}

/**
 * Waits for the first event after the first skip events that matches want,
 * and returns it with its index. An "error" event fails the wait at once.
 * @param {string} path the results file
 * @param {(e: ResultEvent) => boolean} want
 * @param {string} what the event's name in the failure
 * @param {number} [skip]
 * @returns {Promise<{ event: ResultEvent, index: number }>}
 */
export async function waitForResult(path, want, what, skip = 0) {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const events = await readResults(path);
    const error = events.find((e) => e.event === "error");
    if (error) throw new Error(`the extension reported an error: ${String(error["message"])}`);
    const index = events.findIndex((e, i) => i >= skip && want(e));
    const event = events[index];
    if (event) return { event, index };
    if (Date.now() > deadline) {
      throw new Error(`no ${what} event in ${path}; got: ${events.map((e) => JSON.stringify(e)).join(" ") || "nothing"}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
