// What the extension host logged: code-server writes it under the
// user-data directory's logs/<session>/exthost*/remoteexthost.log.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { UI_TIMEOUT } from "./workbench.mjs";

/** @param {string} dataDir */
async function extHostLogs(dataDir) {
  /** @type {string[]} */
  const texts = [];
  /** @param {string} dir */
  const walk = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (entry.name.endsWith("exthost.log")) texts.push(await readFile(p, "utf8"));
    }
  };
  await walk(join(dataDir, "logs"));
  return texts.join("\n");
}

/**
 * Waits until the extension host has activated extensionId, and fails
 * with the log's errors about it if activation failed.
 * @param {string} dataDir code-server's user-data directory
 * @param {string} extensionId publisher.name
 * @returns {Promise<void>}
 */
export async function waitForActivation(dataDir, extensionId) {
  const deadline = Date.now() + UI_TIMEOUT;
  while (Date.now() < deadline) {
    const text = await extHostLogs(dataDir);
    const failed = text.split("\n").filter((l) => l.includes(extensionId) && /\[error\]|Activating extension .* failed/i.test(l));
    if (failed.length) throw new Error(`extension ${extensionId} failed to activate:\n${failed.join("\n")}`);
    if (text.includes(`ExtensionService#_doActivateExtension ${extensionId}`)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`extension ${extensionId} was not activated (see artifacts/logs)`);
}
