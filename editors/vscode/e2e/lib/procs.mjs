// Child processes for the end-to-end run: each long-lived one is started in
// its own process group so that stopping it also stops everything it
// spawned (code-server's extension host, the agent, its commands).
import { spawn, execFile } from "node:child_process";
import { createServer } from "node:net";
import { createWriteStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Runs a command to completion, failing with its output when it exits non-zero. */
export async function run(cmd, args, opts = {}) {
  try {
    return await execFileAsync(cmd, args, { maxBuffer: 64 << 20, ...opts });
  } catch (err) {
    const output = `${err.stdout ?? ""}${err.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${err.code ?? err.signal}):\n${output}`, { cause: err });
  }
}

/** Asks the kernel for a free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a long-lived process in a new process group with its output
 * appended to logPath. The returned handle's stop() ends the whole group:
 * SIGTERM, then SIGKILL if it is still there after graceMs.
 */
export function startGroup(cmd, args, { env, cwd, logPath }) {
  const log = createWriteStream(logPath, { flags: "a" });
  const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  let stopping;
  return {
    pid: child.pid,
    exited,
    stop(graceMs = 5000) {
      stopping ??= (async () => {
        signalGroup(child.pid, "SIGTERM");
        const timer = new Promise((r) => setTimeout(r, graceMs, "timeout"));
        if ((await Promise.race([exited, timer])) === "timeout") signalGroup(child.pid, "SIGKILL");
        // The group may outlive its leader: finish off any member left.
        signalGroup(child.pid, "SIGKILL");
        await exited;
        log.end();
      })();
      return stopping;
    },
  };
}

function signalGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
  } catch (err) {
    if (err.code !== "ESRCH") throw err;
  }
}

/** Lists the processes whose command line mentions marker (ours excepted). */
export async function processesMentioning(marker) {
  const found = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${name}/cmdline`, "utf8")).replaceAll("\0", " ").trim();
      if (cmdline.includes(marker)) found.push({ pid: Number(name), cmdline });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/** Polls url until it answers 2xx, or fails after timeoutMs (a hang guard). */
export async function waitForHttp(url, timeoutMs, exited) {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  exited?.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
