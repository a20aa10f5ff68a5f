// Reading what dsh-acp keeps in its state directory (DSH_STATE_DIR):
// index.json listing the sessions, and each session's log,
// sessions/<id>.jsonl, one event a line ({"seq":…,"kind":"user/message",
// "data":{…}}). dsh-acp writes an event to the log before the editor is
// shown it.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { isErrno } from "./procs.mjs";

/**
 * One event of a session's log: its kind and its data as stored.
 * @typedef {{ kind: string, data: unknown }} StoredEvent
 */

/**
 * The text of every file under dir, concatenated.
 * @param {string} dir
 * @returns {Promise<string>}
 */
export async function allText(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  /** @type {string[]} */
  const texts = [];
  for (const entry of entries) {
    if (entry.isFile()) texts.push(await readFile(join(entry.parentPath, entry.name), "utf8").catch(() => ""));
  }
  return texts.join("\n");
}

/**
 * The events of session id's log, or undefined when it has no log.
 * @param {string} stateDir
 * @param {string} id
 * @returns {Promise<StoredEvent[] | undefined>}
 */
export async function sessionEvents(stateDir, id) {
  /** @type {string | undefined} */
  let text;
  try {
    text = await readFile(join(stateDir, "sessions", `${id}.jsonl`), "utf8");
  } catch (err) {
    if (isErrno(err, "ENOENT")) return undefined;
    throw err;
  }
  /** @type {StoredEvent[]} */
  const events = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    /** @type {unknown} */
    const v = JSON.parse(line);
    if (v !== null && typeof v === "object" && "kind" in v && typeof v.kind === "string") events.push({ kind: v.kind, data: "data" in v ? v.data : undefined });
  }
  return events;
}

/**
 * Whether dsh-acp's index.json names session id.
 * @param {string} stateDir
 * @param {string} id
 * @returns {Promise<boolean>}
 */
export async function indexNames(stateDir, id) {
  const text = await readFile(join(stateDir, "index.json"), "utf8").catch((/** @type {unknown} */ err) => {
    if (isErrno(err, "ENOENT")) return "";
    throw err;
  });
  return text.includes(JSON.stringify(id));
}
