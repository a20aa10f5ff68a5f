import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import * as path from "node:path";

const moduleRoot = path.resolve(__dirname, "..", "..", "..", "..", "..");

/** The dsh-acp binary the protocol tests run: DSH_ACP_BIN, else one built from this repository into dir. */
export function dshAcpBinary(dir: string): string {
  const prebuilt = process.env["DSH_ACP_BIN"];
  if (prebuilt) return prebuilt;
  const binary = path.join(dir, "dsh-acp");
  execFileSync("go", ["build", "-o", binary, "./cmd/dsh-acp"], { cwd: moduleRoot, stdio: "inherit" });
  return binary;
}

/**
 * The environment of a dsh-acp whose model answers with script, one
 * line per model request in the order they come (a subagent's requests
 * among its parent's), its state and config in dir, no API key.
 */
export function scriptedEnv(dir: string, script: readonly unknown[]): NodeJS.ProcessEnv {
  const scriptPath = path.join(dir, "model.jsonl");
  writeFileSync(scriptPath, script.map((x) => JSON.stringify(x)).join("\n") + "\n");
  const env: NodeJS.ProcessEnv = { ...process.env, DSH_MODEL_SCRIPT: scriptPath, DSH_STATE_DIR: path.join(dir, "state"), XDG_CONFIG_HOME: path.join(dir, "config") };
  delete env["DSH_API_KEY"];
  delete env["DEEPSEEK_API_KEY"];
  delete env["DSH_CONFIG"];
  return env;
}
