import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { webStdio } from "../../src/client/stdio";

describe("a child's stdio as web streams", () => {
  it("drops output that comes after the reader gave up, instead of throwing in the event loop", async () => {
    // The child writes a line, waits for a line on stdin, then writes more:
    // the second write comes after the reader has cancelled the stream.
    const child = spawn(process.execPath, [
      "-e",
      "process.stdout.write('first\\n'); process.stdin.once('data', () => { process.stdout.write('late\\n'); process.exit(0); });",
    ]);
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown): void => {
      uncaught.push(e);
    };
    process.on("uncaughtException", onUncaught);
    try {
      const { input, output } = webStdio(child);
      const reader = input.getReader();
      const first = await reader.read();
      assert.equal(new TextDecoder().decode(first.value), "first\n");
      await reader.cancel();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const writer = output.getWriter();
      await writer.write(new TextEncoder().encode("go\n"));
      await exited;
      await new Promise((resolve) => setImmediate(resolve)); // let the late output's handler run
      assert.deepEqual(uncaught, []);
    } finally {
      process.off("uncaughtException", onUncaught);
      child.kill();
    }
  });
});
