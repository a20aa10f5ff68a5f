#!/usr/bin/env node
// dsh-acp's npm launcher: finds the platform package npm installed beside
// it (@dsh-acp/<platform>-<arch>, one of this package's
// optionalDependencies) and runs its binary with the same arguments and
// stdio. Signals sent to the launcher reach the binary; the launcher ends
// the way the binary ended (its exit status, or the same signal). It has
// no dependencies and runs no install script.
"use strict";

const { spawn } = require("node:child_process");
const { constants } = require("node:os");
const path = require("node:path");
const { isatty } = require("node:tty");

const pkg = `@dsh-acp/${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "dsh-acp.exe" : "dsh-acp";

let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
} catch {
  process.stderr.write(
    `dsh-acp: the package ${pkg} is not installed, so there is no dsh-acp binary for ${process.platform}-${process.arch}.\n` +
      "npm installs it with dsh-acp unless optional dependencies are omitted (--omit=optional, --no-optional):\n" +
      "reinstall dsh-acp without that, or download a release archive from https://github.com/dsh-acp/dsh-acp/releases.\n",
  );
  process.exit(1);
}

// SIGINT, SIGTERM and SIGHUP sent to the launcher (an editor stopping its
// agent) are passed on, except a SIGINT while stdin is a terminal: Ctrl-C
// reaches every process of the terminal's foreground group, the binary
// included, and dsh-acp takes a second one as "stop now".
// (isatty, not process.stdin: that would open fd 0 as a stream, make it
// non-blocking under the binary and read from it.)
const fromTerminal = isatty(0);
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
let child;
const relay = (signal) => {
  if (signal === "SIGINT" && fromTerminal) return;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
// Listening before the binary starts: a signal in between would
// otherwise end the launcher and leave the binary running.
for (const signal of forwarded) process.on(signal, relay);

child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

child.on("error", (err) => {
  process.stderr.write(`dsh-acp: cannot run ${binary}: ${err.message}\n`);
  process.exit(1);
});

child.on("exit", (code, signal) => {
  if (signal) {
    // End the same way: without our handlers, the signal's default action;
    // for one Node ignores (SIGPIPE), the shell's 128 + its number.
    for (const s of forwarded) process.removeListener(s, relay);
    process.exitCode = 128 + (constants.signals[signal] ?? 0);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
