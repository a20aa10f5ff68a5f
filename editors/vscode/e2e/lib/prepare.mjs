// Preparing a run: the tools setup.sh installed, the built agent and
// extension, and a fresh workspace, user-data and extensions directory.
import { cp, mkdir, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./procs.mjs";

/**
 * The programs setup.sh installed.
 * @typedef {{ node24: string, codeServer: string, chromium: string }} Tools
 */

/**
 * The run's scratch directories, all under root.
 * @typedef {{ root: string, ws: string, data: string, ext: string, bin: string, xdg: string }} RunDirs
 */

/**
 * What the harness reads of the extension's package.json.
 * @typedef {object} PackageJson
 * @property {string} name
 * @property {string} version
 * @property {string} publisher
 * @property {Record<string, string>} [scripts]
 * @property {{ viewsContainers?: { activitybar?: { title?: string }[] } }} [contributes]
 */

/**
 * Reads the tool paths setup.sh recorded in the cache's env file.
 * @returns {Promise<Tools>}
 */
export async function loadTools() {
  const cache = process.env["DSH_E2E_CACHE"] ?? join(homedir(), ".cache", "dsh-vscode-e2e");
  const envFile = join(cache, "env");
  if (!existsSync(envFile)) throw new Error(`${envFile} is missing: run editors/vscode/e2e/setup.sh first`);
  const vars = Object.fromEntries(
    (await readFile(envFile, "utf8"))
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  /** @param {string} name @param {string | undefined} path @returns {string} */
  const tool = (name, path) => {
    if (!path || !existsSync(path)) throw new Error(`${name} not found at ${String(path)}: run editors/vscode/e2e/setup.sh`);
    return path;
  };
  return {
    node24: tool("node24", vars["DSH_E2E_NODE24"]),
    codeServer: tool("codeServer", vars["DSH_E2E_CODE_SERVER"]),
    chromium: tool("chromium", vars["DSH_E2E_CHROMIUM"]),
  };
}

/**
 * Makes the run's scratch directories under one fresh temporary directory.
 * @returns {Promise<RunDirs>}
 */
export async function makeRunDirs() {
  const root = await mkdtemp(join(tmpdir(), "dsh-vscode-e2e-"));
  const dirs = {
    root,
    ws: join(root, "ws"),
    data: join(root, "data"),
    ext: join(root, "ext"),
    bin: join(root, "bin"),
    xdg: join(root, "xdg"),
  };
  for (const d of Object.values(dirs)) await mkdir(d, { recursive: true });
  return dirs;
}

/**
 * Builds dsh-acp from the module at repoRoot into binDir, and returns the
 * path of a wrapper script beside it that runs it with its debug log
 * written to logPath (what dsh.path points at). With trace, the wrapper
 * copies the frames dsh-acp reads to logPath.in. With trace or stamp,
 * dsh-acp's stdout goes through the relay stamp.mjs (copied into binDir,
 * run by this Node), which copies the frames it writes to logPath.out and
 * the time each one was read to logPath.out.times, for the latency probe.
 * @param {string} repoRoot
 * @param {string} binDir
 * @param {string} logPath
 * @param {boolean} [trace]
 * @param {boolean} [stamp]
 * @returns {Promise<string>} the wrapper's path
 */
export async function buildAgent(repoRoot, binDir, logPath, trace = false, stamp = false) {
  const out = join(binDir, "dsh-acp");
  await run("go", ["build", "-o", out, "./cmd/dsh-acp"], { cwd: repoRoot });
  const wrapper = join(binDir, "dsh-acp-logged");
  /** @param {string} s */
  const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
  const agent = `${quote(out)} --log-file ${quote(logPath)} --log-level debug "$@"`;
  let body = `exec ${agent}`;
  if (trace || stamp) {
    const relay = join(binDir, "stamp.mjs");
    await cp(join(dirname(fileURLToPath(import.meta.url)), "stamp.mjs"), relay);
    const input = trace ? `tee -a ${quote(`${logPath}.in`)} | ` : "";
    body = `${input}${agent} | ${quote(process.execPath)} ${quote(relay)} ${quote(`${logPath}.out`)}`;
  }
  await writeFile(wrapper, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return wrapper;
}

/**
 * Builds dsh-acp from the module at repoRoot into binDir, as it is, and
 * returns its path (what a platform .vsix carries).
 * @param {string} repoRoot
 * @param {string} binDir
 * @returns {Promise<string>}
 */
export async function buildPlainAgent(repoRoot, binDir) {
  const out = join(binDir, "dsh-acp");
  await run("go", ["build", "-o", out, "./cmd/dsh-acp"], { cwd: repoRoot });
  return out;
}

/**
 * The PATH without any directory holding a dsh-acp, so only the
 * extension's own binary can run.
 * @param {string} pathEnv
 * @returns {string}
 */
export function pathWithoutAgent(pathEnv) {
  return pathEnv.split(":").filter((d) => d !== "" && !existsSync(join(d, "dsh-acp"))).join(":");
}

/** VS Code's name for this machine's platform (a .vsix target): Node's platform-arch. */
export function hostVsixTarget() {
  return `${process.platform}-${process.arch}`;
}

/**
 * Builds the extension in extDir (npm ci when it has no node_modules,
 * then the build script if there is one) and installs it into
 * extensionsDir: as a .vsix (written to scratchDir) through code-server
 * when `npm run package` exists, else as an unpacked folder. With
 * bundle, the .vsix is the platform one for this machine carrying
 * bundle.binary. Returns the extension's id, the title of its
 * activity-bar container, and how it was installed.
 * @param {{ extDir: string, extensionsDir: string, scratchDir: string, codeServer: string, env: NodeJS.ProcessEnv, log: (msg: string) => void, bundle?: { binary: string } }} options
 * @returns {Promise<{ id: string, containerTitle: string | undefined, how: string }>}
 */
export async function buildAndInstallExtension({ extDir, extensionsDir, scratchDir, codeServer, env, log, bundle }) {
  /** @type {unknown} */
  const json = JSON.parse(await readFile(join(extDir, "package.json"), "utf8"));
  const pkg = /** @type {PackageJson} */ (json);
  const id = `${pkg.publisher}.${pkg.name}`;
  const containerTitle = pkg.contributes?.viewsContainers?.activitybar?.[0]?.title;
  const scripts = pkg.scripts ?? {};
  // npm ci only when there is no node_modules at all: an existing one may
  // be in use (or being installed) by another build in the same checkout.
  const locked = existsSync(join(extDir, "package-lock.json"));
  if (locked && !existsSync(join(extDir, "node_modules"))) {
    log("npm ci (extension)");
    await run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: extDir });
  }
  if (scripts["build"]) {
    log("npm run build (extension)");
    await run("npm", ["run", "build"], { cwd: extDir });
  }
  if (scripts["package"]) {
    // The package script ends with `vsce package`, so --out lands there and
    // keeps the .vsix out of the source tree.
    const out = join(scratchDir, `${pkg.name}-${pkg.version}.vsix`);
    const target = bundle ? ["--target", hostVsixTarget()] : [];
    log(`npm run package -- ${target.join(" ")} (extension)`);
    const started = Date.now();
    await run("npm", ["run", "package", "--", ...target, "--out", out], { cwd: extDir, env: { ...process.env, DSH_ACP_BIN: bundle?.binary ?? "" } });
    const vsix = existsSync(out) ? out : await newestVsix(extDir, started);
    log(`code-server --install-extension ${vsix}`);
    await run(codeServer, ["--extensions-dir", extensionsDir, "--install-extension", vsix], { env });
    return { id, containerTitle, how: `vsix ${vsix}` };
  }
  const target = join(extensionsDir, `${id}-${pkg.version}`);
  await cp(extDir, target, {
    recursive: true,
    filter: (src) => !src.startsWith(join(extDir, "e2e")) && !src.endsWith(".vsix"),
  });
  return { id, containerTitle, how: `unpacked folder ${target}` };
}

/**
 * The newest .vsix in dir written since (ms since the epoch, less a second of slack).
 * @param {string} dir
 * @param {number} since
 * @returns {Promise<string>}
 */
async function newestVsix(dir, since) {
  /** @type {{ path: string, mtimeMs: number } | undefined} */
  let best;
  for (const name of await readdir(dir)) {
    if (!name.endsWith(".vsix")) continue;
    const { mtimeMs } = await stat(join(dir, name));
    if (mtimeMs >= since - 1000 && (!best || mtimeMs > best.mtimeMs)) best = { path: join(dir, name), mtimeMs };
  }
  if (!best) throw new Error(`npm run package made no .vsix in ${dir}`);
  return best.path;
}

/**
 * Writes the workspace's files and the user settings code-server starts with.
 * @param {RunDirs} dirs
 * @param {Readonly<Record<string, string>>} files name → text
 * @param {Readonly<Record<string, unknown>>} settings
 * @returns {Promise<void>}
 */
export async function writeWorkspace(dirs, files, settings) {
  for (const [name, text] of Object.entries(files)) await writeFile(join(dirs.ws, name), text);
  await mkdir(join(dirs.data, "User"), { recursive: true });
  await writeFile(join(dirs.data, "User", "settings.json"), JSON.stringify(settings, null, 2));
}
