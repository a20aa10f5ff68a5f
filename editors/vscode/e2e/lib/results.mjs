// The extension's results hook: with DSH_VSCODE_RESULTS set, the extension
// appends one JSON object per line (turn, permission, review, error
// events; see editors/vscode/TESTING.md). The test waits on these lines.
import { readFile } from "node:fs/promises";
import { UI_TIMEOUT } from "./workbench.mjs";

/** Reads every event written so far (none when the file does not exist yet). */
export async function readResults(path) {
  const text = await readFile(path, "utf8").catch((err) => {
    if (err.code === "ENOENT") return "";
    throw err;
  });
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/**
 * Waits for the first event after the first skip events that matches want,
 * and returns it with its index. An "error" event fails the wait at once.
 */
export async function waitForResult(path, want, what, skip = 0) {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    const events = await readResults(path);
    const error = events.find((e) => e.event === "error");
    if (error) throw new Error(`the extension reported an error: ${error.message}`);
    const index = events.findIndex((e, i) => i >= skip && want(e));
    if (index >= 0) return { event: events[index], index };
    if (Date.now() > deadline) {
      throw new Error(`no ${what} event in ${path}; got: ${events.map((e) => JSON.stringify(e)).join(" ") || "nothing"}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
