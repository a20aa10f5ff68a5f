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

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });

// A terminal's Ctrl-C (or Ctrl-\, a hang-up) reaches every process of its
// foreground group, the binary included; forwarding those would deliver
// them twice, and dsh-acp takes a second signal as "stop now". Signals
// sent to this process alone (an editor stopping its agent) are passed on.
const fromTerminal = Boolean(process.stdin.isTTY);
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
const relay = (signal) => {
  if (signal === "SIGINT" && fromTerminal) return;
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of forwarded) process.on(signal, relay);

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
