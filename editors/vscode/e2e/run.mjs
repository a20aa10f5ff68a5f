#!/usr/bin/env node
// End-to-end test of the dsh VS Code extension in a real VS Code:
// code-server (on Node 24) serving the workbench to headless chromium,
// driven by playwright-core. Run editors/vscode/e2e/setup.sh first.
//
// It builds dsh-acp and the platform .vsix carrying it, installs that into
// a fresh extensions directory, starts code-server on a free port with a
// fresh workspace, a scripted model (scenario.jsonl) and no dsh-acp on the
// PATH or in GOPATH, drives the scenario in lib/scenario.mjs, and checks
// the agent that ran was the one the .vsix carries. Screenshots and logs
// go to artifacts/. DSH_E2E_AGENT=wrapper installs the universal .vsix
// instead, with dsh.path set to a wrapper that logs dsh-acp's debug output
// (artifacts/dsh-acp.log); DSH_E2E_TRACE=1 then also records the frames
// dsh-acp reads (artifacts/dsh-acp.log.in), and unless DSH_E2E_LATENCY=0
// it measures how
// long each prompt's first answer chunk takes from dsh-acp's stdout to the
// chat webview's DOM (lib/latency.mjs), prints it and writes
// artifacts/latency.json; the number is recorded, never asserted. It exits
// non-zero, with the failing step named, on any failure, and stops
// code-server and chromium (with everything they started) at the end.
// After the scenario (and its checks that need dsh-acp running) it points
// dsh.path at the stand-in ACP agent (lib/standIn.mjs) for a second pass:
// an ask_user form, a plan approved, steering, a queued prompt, a notice
// and a compaction; DSH_E2E_STAND_IN=0 skips it. The scenario also drives
// an explore subagent (scenario-subagent.jsonl, after scenario.jsonl) as
// its block in the task's card, and dsh-acp's own ask_user and plan mode
// (scenario-ask-plan.jsonl); DSH_E2E_ASK_PLAN=0 leaves them out. Last,
// lib/conversations.mjs edits and resends a prompt, drops an image, and
// searches, opens, renames and deletes conversations in History
// (scenario-conversations.jsonl).
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage, freePort, processesMentioning, startGroup, waitForHttp } from "./lib/procs.mjs";
import { buildAgent, buildAndInstallExtension, buildPlainAgent, loadTools, makeRunDirs, pathWithoutAgent, writeWorkspace } from "./lib/prepare.mjs";
import { openWorkbench } from "./lib/workbench.mjs";
import { WORKSPACE_FILES, checkStoredSession, runScenario } from "./lib/scenario.mjs";
import { latencyReport } from "./lib/latency.mjs";
import { runStandIn } from "./lib/standIn.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const extDir = process.env["DSH_E2E_EXTENSION_DIR"] ?? resolve(here, "..");
const repoRoot = resolve(here, "..", "..", "..");
const artifacts = process.env["DSH_E2E_ARTIFACTS"] ?? join(here, "artifacts");

const t0 = Date.now();
/** @param {string} msg */
const log = (msg) => console.log(`e2e [${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

async function main() {
  await rm(artifacts, { recursive: true, force: true });
  await mkdir(artifacts, { recursive: true });
  const tools = await loadTools();
  const dirs = await makeRunDirs();
  log(`run directory ${dirs.root}`);
  const results = join(dirs.root, "results.jsonl");
  // The extension host's marks of each prompt's first answer chunk, for the latency probe.
  const marks = join(dirs.root, "marks.jsonl");
  const stateDir = join(dirs.xdg, "state", "dsh-acp");
  // The platform .vsix's own binary, unless the wrapper is asked for.
  const bundled = process.env["DSH_E2E_AGENT"] !== "wrapper";
  const hostPath = String(process.env["PATH"]);
  // The model goes on to a subagent's task, then to ask_user and exit_plan_mode unless DSH_E2E_ASK_PLAN=0, then answers the conversation steps.
  const askPlan = process.env["DSH_E2E_ASK_PLAN"] !== "0";
  const modelScript = join(dirs.root, "scenario.jsonl");
  const parts = ["scenario.jsonl", "scenario-subagent.jsonl", ...(askPlan ? ["scenario-ask-plan.jsonl"] : []), "scenario-conversations.jsonl"];
  await writeFile(modelScript, (await Promise.all(parts.map((p) => readFile(join(here, p), "utf8")))).join(""));
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    PATH: `${dirname(tools.node24)}:${bundled ? pathWithoutAgent(hostPath) : hostPath}`,
    ...(bundled ? { GOPATH: join(dirs.root, "gopath") } : {}),
    DSH_MODEL_SCRIPT: modelScript,
    // A model dsh-acp knows to take images, so the pasted and dropped images go with their prompts (a text-only
    // model's are kept back by the extension, with a note: see src/session/modelImages.ts).
    DSH_MODEL: "gpt-4.1",
    DSH_VSCODE_RESULTS: results,
    ...(bundled || process.env["DSH_E2E_LATENCY"] === "0" ? {} : { DSH_VSCODE_MARKS: marks }),
    DSH_STATE_DIR: stateDir,
    XDG_CONFIG_HOME: join(dirs.xdg, "config"),
    XDG_DATA_HOME: join(dirs.xdg, "data"),
    XDG_STATE_HOME: join(dirs.xdg, "state"),
  };
  delete env["DSH_API_KEY"];
  delete env["DEEPSEEK_API_KEY"];
  delete env["OPENAI_API_KEY"];

  /** @type {import("./lib/procs.mjs").Group | undefined} */
  let server;
  /** @type {import("playwright-core").Browser | undefined} */
  let browser;
  /** @type {import("playwright-core").Page | undefined} */
  let page;
  /** @type {string[]} */
  let pageErrors = [];
  let scenarioDone = false;
  // The probe reads the wrapper's stdout relay.
  const latency = !bundled && process.env["DSH_E2E_LATENCY"] !== "0";
  /** @type {import("./lib/latency.mjs").Probe[]} */
  const probes = [];
  /** @type {string[]} */
  const failures = [];
  // An interrupted run still stops code-server's process group and chromium.
  /** @param {NodeJS.Signals} sig */
  const interrupted = async (sig) => {
    console.error(`e2e: ${sig}: stopping code-server and chromium`);
    await browser?.close().catch(() => undefined);
    await server?.stop();
    process.exit(130);
  };
  process.once("SIGINT", (sig) => void interrupted(sig));
  process.once("SIGTERM", (sig) => void interrupted(sig));
  try {
    log("go build ./cmd/dsh-acp");
    const agent = bundled
      ? await buildPlainAgent(repoRoot, dirs.bin)
      : await buildAgent(repoRoot, dirs.bin, join(artifacts, "dsh-acp.log"), process.env["DSH_E2E_TRACE"] === "1", latency);
    const bundle = bundled ? { binary: agent } : undefined;
    const installed = await buildAndInstallExtension({ extDir, extensionsDir: dirs.ext, scratchDir: dirs.root, codeServer: tools.codeServer, env, log, ...(bundle ? { bundle } : {}) });
    log(`extension ${installed.id} installed as ${installed.how}`);

    await writeWorkspace(dirs, WORKSPACE_FILES, {
      ...(bundled ? {} : { "dsh.path": agent }),
      "workbench.startupEditor": "none",
      "workbench.tips.enabled": false,
      "security.workspace.trust.enabled": false,
      "extensions.autoCheckUpdates": false,
      "extensions.autoUpdate": false,
      "telemetry.telemetryLevel": "off",
      "terminal.integrated.gpuAcceleration": "off",
      "update.mode": "none",
      "chat.disableAIFeatures": true,
      "workbench.secondarySideBar.defaultVisibility": "hidden",
    });

    const port = await freePort();
    log(`starting code-server on 127.0.0.1:${port}`);
    server = startGroup(
      tools.codeServer,
      [
        "--auth", "none",
        "--bind-addr", `127.0.0.1:${port}`,
        "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
        "--user-data-dir", dirs.data,
        "--extensions-dir", dirs.ext,
        dirs.ws,
      ],
      { env, cwd: dirs.ws, logPath: join(artifacts, "code-server.log") },
    );
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000, server.exited);
    log("code-server is up; opening the workbench in chromium");
    ({ browser, page, pageErrors } = await openWorkbench({
      chromiumPath: tools.chromium,
      url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.ws)}`,
    }));
    await page.screenshot({ path: join(artifacts, "00-workbench.png") });
    log("workbench visible");

    failures.push(...(await runScenario({ page, dirs, extension: installed, results, stateDir, modelScript, artifacts, log, probes, askPlan })));
    scenarioDone = true;
    if (bundled) {
      // The agent still runs: it must be the binary the .vsix unpacked.
      const agents = (await processesMentioning(dirs.ext)).filter((p) => /\/bin\/dsh-acp(\s|$)/.test(p.cmdline));
      if (agents.length) log(`the extension runs its own binary: ${agents.map((p) => p.cmdline).join("; ")}`);
      else failures.push(`no dsh-acp from the installed extension (under ${dirs.ext}) is running`);
    }
    // The stand-in agent's pass: what dsh-acp's ask_user and plan mode send, steering, queueing, notices.
    if (process.env["DSH_E2E_STAND_IN"] !== "0") failures.push(...(await runStandIn({ page, dirs, extension: installed, extDir, node: tools.node24, results, artifacts, log })));
  } catch (err) {
    failures.push(errorMessage(err));
    if (page) await page.screenshot({ path: join(artifacts, "failure.png") }).catch(() => undefined);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (pageErrors.length) await writeFile(join(artifacts, "page-errors.txt"), `${pageErrors.join("\n")}\n`);
    await cp(join(dirs.data, "logs"), join(artifacts, "logs"), { recursive: true }).catch(() => undefined);
    await cp(join(dirs.root, "results.jsonl"), join(artifacts, "results.jsonl")).catch(() => undefined);
    await cp(marks, join(artifacts, "marks.jsonl")).catch(() => undefined);
    if (scenarioDone) failures.push(...(await checkStoredSession({ dirs, stateDir })));
    if (latency && probes.length) {
      // Recorded, never asserted: a probe's trouble is printed, not a failure.
      const outPath = join(artifacts, "dsh-acp.log.out");
      const lines = await latencyReport({ probes, outPath, jsonPath: join(artifacts, "latency.json"), marksPath: marks }).catch((/** @type {unknown} */ err) => [`latency: ${errorMessage(err)}`]);
      for (const line of lines) log(line);
    }
    const left = await processesMentioning(dirs.root);
    if (left.length) {
      failures.push(`processes left running:\n${left.map((p) => `  ${p.pid} ${p.cmdline}`).join("\n")}`);
      for (const p of left) process.kill(p.pid, "SIGKILL");
    }
    for (const f of failures) console.error(`e2e FAILED: ${f}`);
    if (!failures.length) await rm(dirs.root, { recursive: true, force: true });
    else console.error(`e2e: run directory kept at ${dirs.root}; artifacts in ${artifacts}`);
  }
  log(failures.length ? "FAIL" : "PASS");
  return failures.length === 0;
}

process.exitCode = (await main()) ? 0 : 1;
