// The relay the agent wrapper pipes dsh-acp's stdout through (see
// buildAgent in prepare.mjs): it passes every byte on at once and appends
// the frames to outPath and, for each line, the wall-clock time
// (Date.now(), in ms) at which the relay read the line's end to
// outPath.times (line i of one belongs to line i of the other). The
// latency probe (latency.mjs) compares these times with the chat
// webview's. Usage: node stamp.mjs outPath
import { openSync, writeSync } from "node:fs";

const outPath = process.argv[2];
if (!outPath) throw new Error("usage: node stamp.mjs outPath");
const out = openSync(outPath, "a");
const times = openSync(`${outPath}.times`, "a");

// A reader gone away ends the relay; dsh-acp then sees its stdout close.
process.stdout.on("error", () => process.exit(0));
process.stdin.on("data", (/** @type {Buffer} */ buf) => {
  const now = Date.now();
  // Pipes are written synchronously on Linux: the frame is on its way
  // before the logs are written.
  process.stdout.write(buf);
  writeSync(out, buf);
  let stamps = "";
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) stamps += `${now}\n`;
  if (stamps) writeSync(times, stamps);
});
process.stdin.on("end", () => process.exit(0));
