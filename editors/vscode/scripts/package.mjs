// Packages the extension with vsce.
//
//   npm run package                                  the universal .vsix: it runs the
//                                                    dsh-acp of dsh.path, PATH or GOPATH
//   npm run package -- --target linux-x64 [--out f]  a platform .vsix carrying its
//                                                    dsh-acp in bin/
//
// The platform's binary is $DSH_ACP_BIN when set, else the release's
// (npm/dsh-acp-<target>/bin of $DSH_DIST, default the repository's dist/,
// which `make release` writes), else one built now with go build
// (reproducible flags, as the release's). Other arguments go to
// `vsce package`. The bin/ directory exists only while vsce runs.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const repo = path.resolve(root, "..", "..");

/** VS Code's platform targets and how Go names them. */
const TARGETS = /** @type {const} */ ({
  "linux-x64": { goos: "linux", goarch: "amd64" },
  "linux-arm64": { goos: "linux", goarch: "arm64" },
  "darwin-x64": { goos: "darwin", goarch: "amd64" },
  "darwin-arm64": { goos: "darwin", goarch: "arm64" },
  "win32-x64": { goos: "windows", goarch: "amd64" },
  "win32-arm64": { goos: "windows", goarch: "arm64" },
});

/**
 * Runs a command in cwd with inherited stdio; exits on failure.
 * @param {string} cmd @param {string[]} args @param {string} cwd @param {NodeJS.ProcessEnv} [env]
 */
function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: "inherit" });
  if (r.error) throw r.error;
  if (r.status !== 0) {
    console.error(`package: ${cmd} ${args.join(" ")} failed (${r.signal ?? `exit ${String(r.status)}`})`);
    process.exit(r.status ?? 1);
  }
}

/**
 * Splits --target from the arguments meant for vsce.
 * @param {string[]} argv
 * @returns {{ target: string | undefined, rest: string[] }}
 */
function parseArgs(argv) {
  /** @type {string | undefined} */
  let target;
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = String(argv[i]);
    if (a === "--target") target = argv[++i];
    else if (a.startsWith("--target=")) target = a.slice("--target=".length);
    else rest.push(a);
  }
  return { target, rest };
}

/**
 * Puts target's dsh-acp at file: $DSH_ACP_BIN, the release's, or a fresh build.
 * @param {keyof typeof TARGETS} target @param {string} file
 */
function provideBinary(target, file) {
  const { goos, goarch } = TARGETS[target];
  const exe = goos === "windows" ? "dsh-acp.exe" : "dsh-acp";
  const dist = path.resolve(process.env["DSH_DIST"] ?? path.join(repo, "dist"));
  const released = path.join(dist, "npm", `dsh-acp-${target}`, "bin", exe);
  const given = process.env["DSH_ACP_BIN"];
  mkdirSync(path.dirname(file), { recursive: true });
  if (given) {
    console.log(`package: bundling ${given} ($DSH_ACP_BIN)`);
    copyFileSync(given, file);
  } else if (existsSync(released)) {
    console.log(`package: bundling ${released}`);
    copyFileSync(released, file);
  } else {
    console.log(`package: no ${released}; building dsh-acp for ${goos}/${goarch}`);
    run("go", ["build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=", "-o", file, "./cmd/dsh-acp"], repo, {
      ...process.env, CGO_ENABLED: "0", GOOS: goos, GOARCH: goarch, GOFLAGS: "",
    });
  }
  chmodSync(file, 0o755);
}

const { target, rest } = parseArgs(process.argv.slice(2));
if (target !== undefined && !(target in TARGETS)) {
  console.error(`package: unknown --target ${target} (want one of ${Object.keys(TARGETS).join(", ")})`);
  process.exit(2);
}
const bin = path.join(root, "bin");
rmSync(bin, { recursive: true, force: true });
run(process.execPath, [path.join(root, "scripts", "build.mjs")], root);
const vsce = path.join(root, "node_modules", ".bin", "vsce");
try {
  if (target !== undefined) {
    const t = /** @type {keyof typeof TARGETS} */ (target);
    provideBinary(t, path.join(bin, TARGETS[t].goos === "windows" ? "dsh-acp.exe" : "dsh-acp"));
    run(vsce, ["package", "--no-dependencies", "--target", t, ...rest], root);
  } else {
    run(vsce, ["package", "--no-dependencies", ...rest], root);
  }
} finally {
  rmSync(bin, { recursive: true, force: true });
}
