import { execFile } from "node:child_process";
import { access, chmod, constants, stat } from "node:fs/promises";
import * as path from "node:path";

/** The command that installs dsh-acp, quoted in every "not found" message. */
export const INSTALL_COMMAND = "go install github.com/dsh-acp/dsh-acp/cmd/dsh-acp@latest";

/**
 * The directory a platform .vsix carries its dsh-acp in: bin/ beside
 * dist/, where this module is bundled (dist/extension.js).
 */
export function bundledBinaryDir(): string {
  return path.join(__dirname, "..", "bin");
}

/** The binary's file name on platform: dsh-acp, or dsh-acp.exe on Windows. */
export function binaryName(platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? "dsh-acp.exe" : "dsh-acp";
}

/** Where to look for the dsh-acp binary, in order. */
export interface BinaryLookup {
  /** The dsh.path setting; used alone when set. */
  readonly configuredPath?: string;
  /** The directory the extension's own binary is in (bundledBinaryDir() when absent). */
  readonly bundledDir?: string;
  /** The platform whose binary name to look for (this one when absent). */
  readonly platform?: NodeJS.Platform;
  /** The PATH to search (the extension host's own when absent). */
  readonly pathEnv?: string;
  /** Returns GOPATH (from `go env GOPATH`), or undefined when go is missing. */
  readonly goPath?: () => Promise<string | undefined>;
}

/** Raised when dsh-acp is not where the settings, the extension, PATH or GOPATH say. */
export class AgentNotFoundError extends Error {
  /** Every place that was looked at, in order. */
  readonly tried: readonly string[];

  constructor(tried: readonly string[]) {
    super(
      `dsh-acp was not found (looked at: ${tried.join(", ")}). Install it with \`${INSTALL_COMMAND}\` ` +
        "or set dsh.path to the binary.",
    );
    this.name = "AgentNotFoundError";
    this.tried = tried;
  }
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Returns GOPATH as `go env GOPATH` prints it, or undefined without go. */
export function goEnvGoPath(): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile("go", ["env", "GOPATH"], { timeout: 10_000 }, (err, stdout) => {
      const out = stdout.trim();
      resolve(err || out === "" ? undefined : out);
    });
  });
}

/**
 * Returns the bundled binary at file, made executable if unpacking the
 * .vsix lost its mode; undefined when there is none (a universal .vsix).
 */
async function bundledBinary(file: string): Promise<string | undefined> {
  try {
    if (!(await stat(file)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  if (!(await isExecutable(file))) await chmod(file, 0o755).catch(() => undefined);
  return (await isExecutable(file)) ? file : undefined;
}

/**
 * Finds the dsh-acp binary: the configured path when set (and nothing
 * else), else the binary a platform .vsix carries, else the first
 * executable dsh-acp on PATH, else `$(go env GOPATH)/bin/dsh-acp`.
 * Throws AgentNotFoundError naming every place tried and the install
 * command.
 */
export async function resolveAgentBinary(lookup: BinaryLookup): Promise<string> {
  const configured = lookup.configuredPath?.trim();
  if (configured) {
    if (await isExecutable(configured)) return configured;
    throw new AgentNotFoundError([configured]);
  }
  const name = binaryName(lookup.platform);
  const bundled = path.join(lookup.bundledDir ?? bundledBinaryDir(), name);
  const inVsix = await bundledBinary(bundled);
  if (inVsix) return inVsix;
  const tried: string[] = [bundled];
  const dirs = (lookup.pathEnv ?? process.env["PATH"] ?? "").split(path.delimiter).filter((d) => d !== "");
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  tried.push("PATH");
  const goPath = await (lookup.goPath ?? goEnvGoPath)();
  if (goPath) {
    for (const root of goPath.split(path.delimiter).filter((d) => d !== "")) {
      const candidate = path.join(root, "bin", name);
      if (await isExecutable(candidate)) return candidate;
      tried.push(candidate);
    }
  } else {
    tried.push("$(go env GOPATH)/bin (go not found)");
  }
  throw new AgentNotFoundError(tried);
}
