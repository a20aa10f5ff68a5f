// The second pass of the end-to-end test: the extension switched (by its
// dsh.path setting, as a user would) to the stand-in ACP agent
// (test/fakes/acpAgent.ts, on the SDK's agent side), which sends what
// dsh-acp's ask_user and plan mode will: an ask_user form answered in
// QuickPick / InputBox steps, a plan approved beside its preview; and a
// message steered into a running turn, one queued after it, a notice and
// a compaction. It runs after the checks that need dsh-acp running.
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, processesMentioning, run } from "./procs.mjs";
import { answerForm, reviewPlan } from "./questions.mjs";
import { readResults, waitForResult } from "./results.mjs";
import { UI_TIMEOUT, waitForPrompt, webviewFrame } from "./workbench.mjs";

/**
 * Builds the stand-in agent, points dsh.path at it, and drives it.
 * Returns the failures (every step is soft: the first pass's results stand).
 * @param {object} options
 * @param {import("./workbench.mjs").Page} options.page
 * @param {import("./prepare.mjs").RunDirs} options.dirs
 * @param {{ id: string }} options.extension
 * @param {string} options.extDir the extension's source
 * @param {string} options.node the node that runs the stand-in
 * @param {string} options.results the extension's results file
 * @param {string} options.artifacts
 * @param {(msg: string) => void} options.log
 * @returns {Promise<string[]>}
 */
export async function runStandIn({ page, dirs, extension, extDir, node, results, artifacts, log }) {
  /** @type {string[]} */
  const failures = [];
  /** @param {string} name */
  const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`) });
  /**
   * @param {string} name
   * @param {() => Promise<unknown>} fn
   * @returns {Promise<boolean>} whether it passed
   */
  const step = async (name, fn) => {
    log(`stand-in: ${name}`);
    try {
      await fn();
      return true;
    } catch (err) {
      log(`  FAILED: ${errorMessage(err)}`);
      failures.push(`stand-in step "${name}": ${errorMessage(err)}`);
      await shot(`stand-in-failed-${failures.length}`).catch(() => undefined);
      return false;
    }
  };
  const chat = webviewFrame(page, extension.id);
  /** @param {string} id */
  const byTestId = (id) => chat.locator(`[data-testid="${id}"]`);
  /** @param {string} text */
  const answer = (text) => byTestId("message-agent").filter({ hasText: text }).first().waitFor({ timeout: UI_TIMEOUT });
  /**
   * Types text into the chat input and sends it (Alt+Enter queues it).
   * @param {string} text
   * @param {"Enter" | "Alt+Enter"} [key]
   */
  const send = async (text, key = "Enter") => {
    await byTestId("chat-input").fill(text);
    await byTestId("chat-input").press(key);
  };
  /**
   * Waits until the results file shows n turns ended.
   * @param {number} n
   */
  const turns = async (n) => {
    for (let skip = 0, seen = 0; seen < n; seen++) skip = (await waitForResult(results, (e) => e.event === "turn", `turn ${seen + 1}`, skip)).index + 1;
  };

  const switched = await step("build the stand-in agent, point dsh.path at it and reload the window; the extension starts it", async () => {
    await run("node", ["scripts/build.mjs", "--tests"], { cwd: extDir });
    const script = join(dirs.bin, "acpAgent.js");
    await copyFile(join(extDir, "out", "test", "fakes", "acpAgent.js"), script);
    const wrapper = join(dirs.bin, "stand-in-agent");
    await writeFile(wrapper, `#!/bin/sh\nexec '${node}' '${script}' "$@"\n`, { mode: 0o755 });
    const settingsPath = join(dirs.data, "User", "settings.json");
    /** @type {unknown} */
    const parsed = JSON.parse(await readFile(settingsPath, "utf8"));
    const settings = /** @type {Record<string, unknown>} */ (parsed);
    await writeFile(settingsPath, JSON.stringify({ ...settings, "dsh.path": wrapper }, null, 2));
    // code-server does not watch the settings file: the reloaded window reads it.
    await page.reload();
    await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
    // The reload reopens the view when it was open. Otherwise focus it (the activity-bar
    // icon would close a container the reload left open) from the command palette, with
    // the keyboard's focus in the workbench (not a webview).
    const shown = await byTestId("chat-input")
      .waitFor({ timeout: UI_TIMEOUT })
      .then(() => true)
      .catch(() => false);
    if (!shown) {
      // The status bar, not the editor area: a conversation tab's webview, back after the reload, can cover that.
      await page.locator(".part.statusbar").first().click({ position: { x: 300, y: 5 } });
      await page.keyboard.press("F1");
      const palette = page.locator(".quick-input-widget input");
      await palette.waitFor({ timeout: UI_TIMEOUT });
      await palette.fill(">Focus on Agent View");
      await page.locator(".quick-input-list .monaco-list-row", { hasText: /Focus on Agent View/ }).first().click({ timeout: UI_TIMEOUT });
      await byTestId("chat-input").waitFor({ timeout: UI_TIMEOUT });
    }
    const deadline = Date.now() + UI_TIMEOUT;
    while (!(await processesMentioning(dirs.bin)).some((p) => p.cmdline.includes("acpAgent.js"))) {
      if (Date.now() > deadline) throw new Error("the extension did not start the stand-in agent after dsh.path changed");
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  if (!switched) return failures;
  // Each prompt ends a turn (results hook), counted from the first pass's.
  let done = (await readResults(results)).filter((e) => e.event === "turn").length;

  await step("it advertises notices, compaction and form elicitation in initialize", async () => {
    await send("caps");
    await turns(++done);
    await answer('"elicitation":{"form":{}}');
    await answer('"notices":{}');
  });

  await step("ask_user: the form's choice as a QuickPick, its free text as an InputBox; the answers reach the agent", async () => {
    await send("ask");
    await answerForm(page, [
      { question: "Which database should the service use?", choice: "SQLite" },
      { question: "Anything else I should know?", text: "keep it small" },
    ]);
    await turns(++done);
    await answer('Answer: {"action":"accept","content":{"q1":"SQLite","q2":"keep it small"}}');
    await shot("11-ask-user");
  });

  await step("a plan review: the plan in the preview, Implement in the modal; the agent implements", async () => {
    await send("plan");
    await reviewPlan(page, { planText: "Add the v2 client", choose: "Implement the plan" });
    await turns(++done);
    await answer("Implementing the plan.");
    await shot("12-plan-approved");
  });

  await step("steering: a message sent during the turn reaches it and shows where it landed", async () => {
    await send("wait");
    await answer("Working…");
    await send("use the v2 API instead");
    await answer("Steered: use the v2 API instead");
    await byTestId("message-user").filter({ hasText: "use the v2 API instead" }).first().waitFor({ timeout: UI_TIMEOUT });
    await turns(++done);
  });

  await step("queueing: Alt+Enter during a turn shows the prompt queued, and it runs after the turn", async () => {
    await send("wait");
    // This turn's "Working…", not the last one's.
    await byTestId("message-agent").filter({ hasText: "Working…" }).nth(1).waitFor({ timeout: UI_TIMEOUT });
    await send("then say this", "Alt+Enter");
    await byTestId("pending-queued").filter({ hasText: "then say this" }).waitFor({ timeout: UI_TIMEOUT });
    await shot("13-queued");
    await send("go on");
    await answer("You said: then say this");
    await byTestId("pending-queued").first().waitFor({ state: "detached", timeout: UI_TIMEOUT });
    done += 2;
    await turns(done);
  });

  await step("a notice is a VS Code notification and a line in the chat; a compaction shows completed", async () => {
    await send("notice");
    await waitForPrompt(page, "MCP server docs failed to start");
    await byTestId("agent-notice").filter({ hasText: "MCP server docs failed to start" }).waitFor({ timeout: UI_TIMEOUT });
    await chat.locator('[data-testid="compaction"][data-status="completed"]').first().waitFor({ timeout: UI_TIMEOUT });
    await turns(++done);
    await shot("14-notice-compaction");
  });

  return failures;
}
