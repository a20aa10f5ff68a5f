// Child processes for the end-to-end run: each long-lived one is started in
// its own process group so that stopping it also stops everything it
// spawned (code-server's extension host, the agent, its commands).
import { spawn, execFile } from "node:child_process";
import { createServer } from "node:net";
import { createWriteStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/**
 * Whether err is a system error with code (ENOENT, …).
 * @param {unknown} err
 * @param {string} code
 * @returns {boolean}
 */
export function isErrno(err, code) {
  return errnoCode(err) === code;
}

/**
 * The code of a system error (ENOENT, …), or undefined for anything else.
 * @param {unknown} err
 * @returns {string | undefined}
 */
export function errnoCode(err) {
  return err instanceof Error ? /** @type {NodeJS.ErrnoException} */ (err).code : undefined;
}

/**
 * The message of a thrown value: an Error's message, else the value as a string.
 * @param {unknown} err
 * @returns {string}
 */
export function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs a command to completion, failing with its output when it exits non-zero.
 * @param {string} cmd
 * @param {readonly string[]} args
 * @param {import("node:child_process").ExecFileOptions} [opts]
 * @returns {Promise<{ stdout: string, stderr: string }>}
 */
export async function run(cmd, args, opts = {}) {
  try {
    const { stdout, stderr } = await execFileAsync(cmd, args, { maxBuffer: 64 << 20, ...opts, encoding: "utf8" });
    return { stdout, stderr };
  } catch (err) {
    /** @type {{ stdout?: string, stderr?: string, code?: number | string, signal?: string }} */
    const failed = err !== null && typeof err === "object" ? err : {};
    const output = `${failed.stdout ?? ""}${failed.stderr ?? ""}`.trim().split("\n").slice(-40).join("\n");
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${String(failed.code ?? failed.signal)}):\n${output}`, { cause: err });
  }
}

/**
 * Asks the kernel for a free TCP port on 127.0.0.1.
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (srv.address());
      srv.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * How a process ended: its exit code, or the signal that ended it.
 * @typedef {{ code: number | null, signal: NodeJS.Signals | null }} Exit
 */

/**
 * A process group started by startGroup.
 * @typedef {object} Group
 * @property {number} pid the group leader's pid (and the group's id)
 * @property {Promise<Exit>} exited settles when the leader exits
 * @property {(graceMs?: number) => Promise<void>} stop ends the whole group
 */

/**
 * Starts a long-lived process in a new process group with its output
 * appended to logPath. The returned handle's stop() ends the whole group:
 * SIGTERM, then SIGKILL if it is still there after graceMs.
 * @param {string} cmd
 * @param {readonly string[]} args
 * @param {{ env: NodeJS.ProcessEnv, cwd: string, logPath: string }} options
 * @returns {Group}
 */
export function startGroup(cmd, args, { env, cwd, logPath }) {
  const log = createWriteStream(logPath, { flags: "a" });
  const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  /** @type {Promise<Exit>} */
  const exited = new Promise((resolve) => child.on("exit", (code, signal) => {
    resolve({ code, signal });
  }));
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${cmd} did not start`);
  /** @type {Promise<void> | undefined} */
  let stopping;
  return {
    pid,
    exited,
    stop(graceMs = 5000) {
      stopping ??= (async () => {
        signalGroup(pid, "SIGTERM");
        /** @type {Promise<"timeout">} */
        const timer = new Promise((r) => setTimeout(r, graceMs, "timeout"));
        if ((await Promise.race([exited, timer])) === "timeout") signalGroup(pid, "SIGKILL");
        // The group may outlive its leader: finish off any member left.
        signalGroup(pid, "SIGKILL");
        await exited;
        log.end();
      })();
      return stopping;
    },
  };
}

/**
 * @param {number} pid
 * @param {NodeJS.Signals} sig
 */
function signalGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
  } catch (err) {
    if (!isErrno(err, "ESRCH")) throw err;
  }
}

/**
 * Lists the processes whose command line mentions marker (ours excepted).
 * @param {string} marker
 * @returns {Promise<{ pid: number, cmdline: string }[]>}
 */
export async function processesMentioning(marker) {
  /** @type {{ pid: number, cmdline: string }[]} */
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

/**
 * Polls url until it answers 2xx, or fails after timeoutMs (a hang guard)
 * or as soon as exited settles (the server is gone).
 * @param {string} url
 * @param {number} timeoutMs
 * @param {Promise<unknown>} [exited]
 * @returns {Promise<void>}
 */
export async function waitForHttp(url, timeoutMs, exited) {
  const deadline = Date.now() + timeoutMs;
  const server = { gone: false };
  void exited?.then(() => (server.gone = true));
  while (Date.now() < deadline) {
    if (server.gone) throw new Error(`the server exited before ${url} answered`);
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
