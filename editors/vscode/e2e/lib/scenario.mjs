// The scenario the end-to-end test drives, step by step, against the ids,
// titles and data-testid attributes in editors/vscode/TESTING.md, waiting
// on the extension's results hook (lib/results.mjs) where it can.
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { waitForActivation } from "./exthost.mjs";
import { installProbe, readProbe, startTrace, stopTrace } from "./latency.mjs";
import { errnoCode, errorMessage } from "./procs.mjs";
import { answerForm, reviewPlan } from "./questions.mjs";
import { dropAnswered, reloadKeepsTab, reloadShowing } from "./reload.mjs";
import { runConversations, runOpenElsewhere } from "./conversations.mjs";
import { showSubagent } from "./subagents.mjs";
import { allText } from "./stored.mjs";
import { readResults, waitForResult } from "./results.mjs";
import { THEMES, setColorTheme, shotInThemes, useTheme } from "./themes.mjs";
import {
  UI_TIMEOUT,
  openViewContainer,
  terminalTitles,
  viewTitleAction,
  waitForDiffEditor,
  waitForPrompt,
  waitForTerminalText,
  webviewFrame,
} from "./workbench.mjs";

// notes.md runs past the edit's hunk (three lines of context), so a diff
// that shows the hunk alone, not the whole file, is told apart.
const NOTES_TAIL = "\nmore\nlines\nbelow\nthe\nhunk\nend of notes\n";

// hunks.txt changes in two places apart: its first change is kept and its last undone in the editor.
const HUNKS_BEFORE = "alpha\nb\nc\nd\ne\nf\ng\nomega\n";

/** The workspace code-server opens; scenario.jsonl edits notes.md, config.txt and hunks.txt, runs greet.sh, then fail.sh (exit 3). */
export const WORKSPACE_FILES = {
  "notes.md": `# Notes\n\noriginal notes\n${NOTES_TAIL}`,
  "config.txt": "mode=old\n",
  "hunks.txt": HUNKS_BEFORE,
  "greet.sh": 'echo "greeting from the e2e workspace"\n',
  "fail.sh": 'echo "failing on purpose"\nexit 3\n',
};

/** What the agent's edits leave on disk before the review. */
const EDITED_FILES = {
  "notes.md": `# Notes\n\nnotes updated by dsh\n${NOTES_TAIL}`,
  "config.txt": "mode=new\n",
  "hunks.txt": "ALPHA\nb\nc\nd\ne\nf\ng\nOMEGA\n",
};

/** What the files hold after the review: notes.md accepted, config.txt rejected (restored), hunks.txt's first change kept and its last undone. */
const REVIEWED_FILES = {
  "notes.md": `# Notes\n\nnotes updated by dsh\n${NOTES_TAIL}`,
  "config.txt": "mode=old\n",
  "hunks.txt": "ALPHA\nb\nc\nd\ne\nf\ng\nomega\n",
};

// Long: the session is titled from it, and a long title must not widen the view.
const PROMPT =
  "Update the notes and the config, then run greet.sh, and while you are at it keep every other line of both files exactly as it is so the review stays small";
const SECOND_PROMPT = "Anything else?";
// What the conversation in an editor tab is sent (answered by dsh-acp itself, no model request).
const TAB_PROMPT = "/help";
// A one-pixel PNG, pasted into the input before the second prompt.
const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const FINAL_TEXT = "Done: notes.md and config.txt are updated";
const SECOND_TEXT = "Nothing else: the review is applied.";
const COMMAND = "sh greet.sh";
const COMMAND_OUTPUT = "greeting from the e2e workspace";
const COMMAND_EXIT = "[dsh: command exited with status 0]";
const FAILING = "sh fail.sh";

/**
 * Runs the scenario. A step that later steps depend on throws at once
 * (with the soft failures before it); a check that nothing later depends
 * on ("soft") is recorded and the scenario goes on. Returns the soft
 * failures. Each prompt's latency probe (latency.mjs) is pushed to probes
 * as { prompt, probe } or { prompt, error }; a probe never fails a step.
 * @param {object} options
 * @param {import("./workbench.mjs").Page} options.page the workbench
 * @param {import("./prepare.mjs").RunDirs} options.dirs
 * @param {{ id: string, containerTitle: string | undefined }} options.extension the installed extension
 * @param {string} options.results the extension's results file
 * @param {string} options.stateDir dsh-acp's state directory (DSH_STATE_DIR)
 * @param {string} options.modelScript the scripted model's answers (DSH_MODEL_SCRIPT), read by dsh-acp as it starts
 * @param {string} options.artifacts where screenshots go
 * @param {(msg: string) => void} options.log
 * @param {import("./latency.mjs").Probe[]} [options.probes]
 * @param {boolean} [options.askPlan] also drive dsh-acp's ask_user and plan mode (scenario-ask-plan.jsonl)
 * @returns {Promise<string[]>}
 */
export async function runScenario({ page, dirs, extension, results, stateDir, modelScript, artifacts, log, probes = [], askPlan = false }) {
  /** @param {string} name */
  const shot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`) });
  // A step of the walk-through: name-light.png and name-dark.png (lib/themes.mjs); a
  // screenshot that could not be taken is a failure, never a reason to stop.
  /** @param {string} name */
  // The theme is picked through the command palette, which under load
  // sometimes will not take the typing (it opens inert, then closes): a
  // walk-through picture missed so is listed in the log and in
  // missed-screenshots.txt, not a failure of the run. The steps' checks,
  // and the themed steps below (08–10), still fail it.
  const both = async (name) => {
    try {
      await shotInThemes(page, chat, artifacts, name);
    } catch (err) {
      await missed(name, err);
    }
  };
  /** @param {string} name @param {unknown} err */
  const missed = async (name, err) => {
    log(`  MISSED: screenshots ${name}: ${errorMessage(err).split("\n")[0]}`);
    await appendFile(join(artifacts, "missed-screenshots.txt"), `${name}: ${errorMessage(err).split("\n")[0]}\n`);
  };
  /** @type {string[]} */
  const failures = [];
  // The conversation tab's title once it has a session (the reload step looks for it).
  /** @type {string | undefined} */
  let tabTitle;
  /**
   * @param {string} name
   * @param {() => Promise<unknown>} fn
   * @param {{ soft?: boolean }} [options]
   * @returns {Promise<void>}
   */
  const step = async (name, fn, { soft = false } = {}) => {
    log(name);
    try {
      await fn();
    } catch (err) {
      const failure = `step "${name}": ${errorMessage(err)}`;
      if (!soft) throw new Error([...failures, failure].join("\n"), { cause: err });
      log(`  FAILED: ${errorMessage(err)}`);
      failures.push(failure);
      await shot(`failed-${failures.length}`).catch(() => undefined);
    }
  };
  const chat = webviewFrame(page, extension.id);
  /** @param {string} id */
  const byTestId = (id) => chat.locator(`[data-testid="${id}"]`);
  // The latency probe: installed before a prompt is sent, read once its answer shows.
  /** @type {Set<string>} */
  const probing = new Set();
  // With DSH_E2E_TRACE_LATENCY=1, a Chromium trace of each probed prompt, from its sending to its answer read.
  const tracePath = process.env["DSH_E2E_TRACE_LATENCY"] === "1" ? (/** @type {number} */ n) => `${artifacts}/trace-${n}.json` : undefined;
  /** @param {string} prompt */
  const probe = async (prompt) => {
    try {
      await installProbe(chat, prompt, page);
      probing.add(prompt);
      if (tracePath) await startTrace(page, tracePath(probing.size + probes.length));
    } catch (err) {
      probes.push({ prompt, error: errorMessage(err) });
    }
  };
  /** @param {string} prompt */
  const readLatency = async (prompt) => {
    if (!probing.delete(prompt)) return;
    try {
      probes.push({ prompt, probe: await readProbe(chat, prompt, undefined, page) });
    } catch (err) {
      probes.push({ prompt, error: errorMessage(err) });
    } finally {
      if (tracePath) await stopTrace(page).catch((/** @type {unknown} */ err) => log(`  latency trace: ${errorMessage(err)}`));
    }
  };

  await step("open the dsh view; the extension activates", async () => {
    if (!extension.containerTitle) throw new Error("the extension's package.json contributes no activity-bar container");
    await openViewContainer(page, extension.containerTitle);
    log("  clicked the activity-bar icon");
    await byTestId("chat-input").waitFor({ timeout: UI_TIMEOUT });
    log("  the chat input is visible");
    await waitForActivation(dirs.data, extension.id);
    await shot("01-view");
  });

  await both("w01-welcome");

  await step("the empty view greets with a hint and the sign-in", () => byTestId("welcome-sign-in").waitFor({ timeout: UI_TIMEOUT }), { soft: true });

  await step("send a prompt from the chat view", async () => {
    await probe(PROMPT);
    await byTestId("chat-input").fill(PROMPT);
    await byTestId("chat-input").press("Enter");
    await byTestId("message-user").filter({ hasText: PROMPT }).waitFor({ timeout: UI_TIMEOUT });
  });

  await step("approve the bash call in the native prompt", async () => {
    const prompt = await waitForPrompt(page, "dsh wants to run a command");
    const text = await prompt.el.innerText();
    if (!text.includes(COMMAND)) throw new Error(`the prompt does not show the command ${COMMAND}: ${JSON.stringify(text)}`);
    await shot("02-approval");
    // A modal dialog is up: the palette cannot switch the theme. The second approval is shot in dark.
    await shot("w02-approval-light");
    const buttons = await prompt.buttons();
    log(`  approval shown as a ${prompt.kind} with ${JSON.stringify(buttons)}`);
    for (const option of ["Allow once", "Reject"]) {
      if (!buttons.includes(option)) throw new Error(`the prompt lacks the agent's option ${option}: ${JSON.stringify(buttons)}`);
    }
    await prompt.click("Allow once");
    // TESTING.md shows outcome as a string; the extension writes the ACP outcome object.
    /** @param {import("./results.mjs").ResultEvent} e */
    const chosen = (e) => {
      const outcome = /** @type {{ outcome?: unknown, optionId?: unknown } | string | null | undefined} */ (e["outcome"]);
      return outcome === "selected" || (typeof outcome === "object" && outcome !== null && outcome.outcome === "selected" && outcome.optionId === "allow-once");
    };
    await waitForResult(results, (e) => e.event === "permission" && chosen(e), "permission");
  });

  await step("see the command's output in its terminal panel", async () => {
    const text = await waitForTerminalText(page, COMMAND_EXIT);
    if (!text.includes(COMMAND_OUTPUT)) throw new Error(`the terminal lacks ${JSON.stringify(COMMAND_OUTPUT)}: ${JSON.stringify(text)}`);
    const titles = await terminalTitles(page);
    if (!titles.some((t) => t.includes(`dsh: ${COMMAND}`))) throw new Error(`no terminal named "dsh: ${COMMAND}" among ${JSON.stringify(titles)}`);
    await shot("03-terminal");
  });

  await step(
    "the bash card shows the output too",
    async () => {
      await byTestId("tool-terminal").filter({ hasText: COMMAND_OUTPUT }).first().waitFor({ timeout: UI_TIMEOUT });
    },
    { soft: true },
  );

  await step("the turn ends with both files changed and the answer shown", async () => {
    const { event } = await waitForResult(results, (e) => e.event === "turn", "turn");
    if (event["stopReason"] !== "end_turn") throw new Error(`turn stopped with ${String(event["stopReason"])}, want end_turn`);
    const changed = event["changed"];
    for (const name of Object.keys(EDITED_FILES)) {
      if (!Array.isArray(changed) || !changed.includes(join(dirs.ws, name))) throw new Error(`turn's changed files ${JSON.stringify(changed)} lack ${name}`);
    }
    await byTestId("message-agent").filter({ hasText: FINAL_TEXT }).waitFor({ timeout: UI_TIMEOUT });
    const statuses = await byTestId("tool-card").evaluateAll((cards) => cards.map((c) => c.dataset["status"]));
    if (statuses.length < 3 || statuses.some((s) => s !== "completed")) throw new Error(`tool cards' statuses ${JSON.stringify(statuses)}, want 3 or more, all completed`);
    await waitForFiles(dirs.ws, EDITED_FILES);
    await readLatency(PROMPT);
    await shot("04-answer");
    await both("w03-answer");
  });

  await step(
    "the view fits its width with a long session title: no sideways scroll, Send and Stop in view",
    async () => {
      await chat.locator('[data-testid="sessions-select"] option', { hasText: "Update the notes" }).first().waitFor({ state: "attached", timeout: UI_TIMEOUT });
      const fit = await chat.locator("body").evaluate((body) => {
        const width = body.ownerDocument.documentElement.clientWidth;
        const right = (/** @type {string} */ id) => body.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect().right ?? Infinity;
        const log = body.querySelector('[data-testid="chat-log"]');
        return { width, scroll: body.ownerDocument.documentElement.scrollWidth, log: log ? log.scrollWidth - log.clientWidth : 0, send: right("send-button"), stop: right("stop-button") };
      });
      if (fit.scroll > fit.width || fit.log > 0 || fit.send > fit.width || fit.stop > fit.width) throw new Error(`the view overflows: ${JSON.stringify(fit)}`);
    },
    { soft: true },
  );

  await step(
    "cards show paths relative to the workspace, each once",
    async () => {
      // A path reads relative, with the line the change starts at.
      const labels = (await byTestId("tool-card-path").allInnerTexts()).map((l) => l.replace(/:\d+$/, ""));
      if (!labels.includes("notes.md") || !labels.includes("config.txt")) throw new Error(`changed paths shown as ${JSON.stringify(labels)}`);
      const card = byTestId("tool-card").filter({ has: chat.locator('[data-path$="/notes.md"]') }).first();
      const shown = await card.locator("a.path").count();
      if (shown !== 1) throw new Error(`the notes.md card shows ${shown} path links, want 1`);
    },
    { soft: true },
  );

  await step(
    "Open diff on the notes.md edit shows the whole file before and after, not the hunk alone",
    async () => {
      await byTestId("tool-card-diff-button").and(chat.locator('[data-path$="notes.md"]')).first().click();
      await waitForDiffEditor(page, "notes.md (before dsh ↔ now)", "end of notes");
      await page.locator(".monaco-diff-editor .editor.original .view-lines", { hasText: "end of notes" }).first().waitFor({ timeout: UI_TIMEOUT });
      await page.locator(".monaco-diff-editor .editor.original .view-lines", { hasText: "original notes" }).first().waitFor({ timeout: UI_TIMEOUT });
      await shot("05a-diff-whole-file");
    },
    { soft: true },
  );

  await step(
    "the editor followed the edited files",
    async () => {
      for (const name of Object.keys(EDITED_FILES)) {
        await page.locator(".tabs-container .tab", { hasText: name }).first().waitFor({ timeout: UI_TIMEOUT });
      }
    },
    { soft: true },
  );

  await step("open the diff editor for the write to config.txt", async () => {
    await byTestId("tool-card-diff-button").and(chat.locator('[data-path$="config.txt"]')).first().click();
    await waitForDiffEditor(page, "config.txt (before dsh ↔ now)", "mode=new");
    await shot("05-diff");
  });

  await step(
    "the edited file shows its hunks in the editor with Keep and Undo; the list counts lines; View all changes opens the multi-file diff",
    async () => {
      await page.locator(".tabs-container .tab", { hasText: /^\s*notes\.md/ }).first().click();
      await page.locator(".codelens-decoration", { hasText: "Keep (+1 −1)" }).first().waitFor({ timeout: UI_TIMEOUT });
      await page.locator(".codelens-decoration", { hasText: "Undo" }).first().waitFor({ timeout: UI_TIMEOUT });
      const counts = await byTestId("review-counts").allInnerTexts();
      if (!counts.includes("+1 −1")) throw new Error(`the review list's counts read ${JSON.stringify(counts)}`);
      await shot("05b-inline-review");
      await both("w04-inline-review");
      await byTestId("review-view-all").click();
      await page.locator(".tabs-container .tab", { hasText: "dsh: changes (3 files)" }).first().waitFor({ timeout: UI_TIMEOUT });
      await shot("05c-all-changes");
      await both("w05-all-changes");
    },
    { soft: true },
  );

  await step("a window reload keeps the review: the edited file shows its Keep / Undo with the dsh view closed, and the same files come back in the list, with their counts", async () => {
    // The reload restarts dsh-acp, which reads its script from the top: the first turn's answers go first.
    await dropAnswered(modelScript, FINAL_TEXT);
    // The side bar on the Explorer: after the reload no dsh view is open, and the review in the editor comes back all the same.
    await reloadShowing(page, "Explorer");
    await page.locator(".tabs-container .tab", { hasText: /^\s*hunks\.txt/ }).first().click({ timeout: UI_TIMEOUT });
    await page
      .locator(".codelens-decoration a", { hasText: /^\s*dsh: Keep file/ })
      .first()
      .waitFor({ timeout: UI_TIMEOUT })
      .catch(() => {
        throw new Error("after a reload with the dsh view closed, the file under review shows no Keep / Undo");
      });
    if ((await page.locator(`iframe.webview[src*="extensionId=${extension.id}"]`).count()) !== 0) throw new Error("a dsh view was open after all: the check proves nothing");
    if (!extension.containerTitle) throw new Error("the extension's package.json contributes no activity-bar container");
    await openViewContainer(page, extension.containerTitle);
    await byTestId("chat-input").waitFor({ timeout: UI_TIMEOUT });
    /** @type {Record<string, string>} */
    const want = { "notes.md": "+1 −1", "config.txt": "+1 −1", "hunks.txt": "+2 −2" };
    for (const [name, counts] of Object.entries(want)) {
      const row = byTestId("review-file").and(chat.locator(`[data-path$="/${name}"]`)).first();
      await row.waitFor({ timeout: UI_TIMEOUT });
      const shown = await row.locator('[data-testid="review-counts"]').innerText();
      if (shown.trim() !== counts) throw new Error(`after the reload, ${name}'s row counts ${JSON.stringify(shown)}, want ${counts}`);
    }
    await shot("05d-review-after-reload");
  });

  await step(
    "in hunks.txt, Undo its last change and Keep its first with the CodeLens above each",
    async () => {
    await page.locator(".tabs-container .tab", { hasText: /^\s*hunks\.txt/ }).first().click();
    // The editor followed the write to its last line: back to the top, where both changes show.
    await page.locator(".part.editor .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    /** @param {RegExp} title */
    const lens = (title) => page.locator(".codelens-decoration a", { hasText: title });
    const undo = lens(/^\s*Undo\s*$/);
    const keep = lens(/^\s*Keep \(\+1 −1\)\s*$/);
    await undo.nth(1).waitFor({ timeout: UI_TIMEOUT });
    await both("w06-hunks");
    const before = (await readResults(results)).length;
    await undo.nth(1).click();
    await waitForResult(results, (e) => e.event === "review" && e["action"] === "undoHunk", "undoHunk", before);
    await page.waitForFunction(() => [...document.querySelectorAll(".codelens-decoration a")].filter((a) => /^\s*Undo\s*$/.test(a.textContent)).length === 1, undefined, { timeout: UI_TIMEOUT });
    await keep.first().click();
    await waitForResult(results, (e) => e.event === "review" && e["action"] === "keepHunk", "keepHunk", before);
    await waitForFiles(dirs.ws, { "hunks.txt": REVIEWED_FILES["hunks.txt"] });
    await byTestId("review-file").and(chat.locator('[data-path$="/hunks.txt"]')).waitFor({ state: "detached", timeout: UI_TIMEOUT });
    await both("w07-hunks-done");
    },
    { soft: true },
  );

  await step("reject config.txt and accept notes.md in the review list", async () => {
    /** @param {string} name */
    const row = (name) => byTestId("review-file").and(chat.locator(`[data-path$="/${name}"]`)).first();
    await row("config.txt").locator('[data-testid="review-reject"]').click();
    await waitForResult(results, (e) => e.event === "review" && e["action"] === "reject", "review reject");
    await row("notes.md").locator('[data-testid="review-accept"]').click();
    await waitForResult(results, (e) => e.event === "review" && e["action"] === "accept", "review accept");
    await shot("06-review");
    await both("w08-reviewed");
  });

  await step("select two lines of notes.md: the view offers them as context", async () => {
    await page.locator(".tabs-container .tab", { hasText: /^\s*notes\.md/ }).first().click();
    await page.locator(".part.editor .monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Shift+ArrowDown");
    await page.keyboard.press("Shift+End");
    await byTestId("context-chip").filter({ hasText: "notes.md:1-2" }).waitFor({ timeout: UI_TIMEOUT });
    await both("w09-selection");
  });

  await step("@ offers the selection first, then a typed @gre completes to greet.sh", async () => {
    const input = byTestId("chat-input");
    await input.fill(`${SECOND_PROMPT} @`);
    await byTestId("mention-completion").and(chat.locator('[data-kind="selection"][data-path="notes.md#L1-2"]')).waitFor({ timeout: UI_TIMEOUT });
    await both("w10-mention-selection");
    await input.press("g");
    await input.press("r");
    await input.press("e");
    await byTestId("mention-completion").and(chat.locator('[data-path="greet.sh"]')).waitFor({ timeout: UI_TIMEOUT });
    await both("w11-mention-file");
    await input.press("Tab");
    const value = await input.inputValue();
    if (value !== `${SECOND_PROMPT} @greet.sh `) throw new Error(`the input reads ${JSON.stringify(value)} after Tab`);
  });

  await step(
    "@ lists a workspace symbol with its lines (the Markdown heading of notes.md)",
    async () => {
      const input = byTestId("chat-input");
      const kept = await input.inputValue();
      await input.fill(`${kept}@Note`);
      await input.press("s");
      await byTestId("mention-completion").and(chat.locator('[data-kind="symbol"][data-path^="notes.md#L"]')).first().waitFor({ timeout: UI_TIMEOUT });
      await both("w12-mention-symbol");
      await input.fill(kept);
    },
    { soft: true },
  );

  await step(
    "an image pasted into the input shows as a thumbnail, to go with the prompt",
    async () => {
      await byTestId("chat-input").evaluate((input, data) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([bytes], "dot.png", { type: "image/png" }));
        input.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
      }, PIXEL_PNG);
      await byTestId("image-chip").waitFor({ timeout: UI_TIMEOUT });
      await both("w13-image");
    },
    { soft: true },
  );

  await step("check the files on disk", () => waitForFiles(dirs.ws, REVIEWED_FILES), { soft: true });

  await step("send a second prompt after the review, with the selection and the mention; approve the command that fails", async () => {
    await probe(SECOND_PROMPT);
    if (!(await byTestId("chat-input").inputValue()).startsWith(SECOND_PROMPT)) await byTestId("chat-input").fill(`${SECOND_PROMPT} @greet.sh `);
    await useTheme(page, chat, THEMES[1]).catch((/** @type {unknown} */ err) => log(`  no dark theme for the approval: ${errorMessage(err)}`));
    await byTestId("chat-input").press("Enter");
    const prompt = await waitForPrompt(page, "dsh wants to run a command");
    await shot("w02-approval-dark");
    const text = await prompt.el.innerText();
    if (!text.includes(FAILING)) throw new Error(`the prompt does not show the command ${FAILING}: ${JSON.stringify(text)}`);
    await prompt.click("Allow once");
    const first = await waitForResult(results, (e) => e.event === "turn", "first turn");
    await waitForResult(results, (e) => e.event === "turn", "second turn", first.index + 1);
    await byTestId("message-agent").filter({ hasText: SECOND_TEXT }).waitFor({ timeout: UI_TIMEOUT });
    await readLatency(SECOND_PROMPT);
    await shot("07-second-turn");
    const context = await byTestId("message-context").last().innerText();
    if (!context.includes("notes.md:1-2") || !context.includes("greet.sh")) throw new Error(`the second prompt's context reads ${JSON.stringify(context)}`);
    await both("w14-second-turn");
  });

  await step(
    "the command that exited 3 shows failed, with its exit code",
    async () => {
      const card = chat.locator('[data-testid="tool-card"][data-tool-call-id="b2"]');
      await card.and(chat.locator('[data-status="failed"]')).waitFor({ timeout: UI_TIMEOUT });
      const status = await card.locator('[data-testid="tool-card-status"]').innerText();
      if (!status.includes("failed")) throw new Error(`the failed command's status reads ${JSON.stringify(status)}`);
      await card.locator('[data-testid="tool-terminal"]', { hasText: "[exit code 3]" }).waitFor({ timeout: UI_TIMEOUT });
    },
    { soft: true },
  );

  await step(
    "a subagent: dsh-acp's explore task shows as the child's block in the task's card, done, its read and answer inside",
    async () => {
      await showSubagent(chat);
      await both("w14b-subagent");
    },
    { soft: true },
  );

  if (askPlan) {
    await step(
      "ask_user through dsh-acp: the question as a QuickPick, the answer reaches the model",
      async () => {
        const second = await waitForResult(results, (e) => e.event === "turn", "second turn", 1);
        await byTestId("chat-input").fill("Ask me which database to use");
        await byTestId("chat-input").press("Enter");
        // dsh-acp's form: the choice, then an optional field for the user's own words (left empty).
        await answerForm(page, [
          { question: "Which database should the service use?", choice: "SQLite" },
          { question: "Or in your own words", text: "" },
        ]);
        await waitForResult(results, (e) => e.event === "turn", "the ask_user turn", second.index + 1);
        await byTestId("message-agent").filter({ hasText: "You chose SQLite." }).waitFor({ timeout: UI_TIMEOUT });
        await shot("07a-ask-user");
      },
      { soft: true },
    );
    await step(
      "plan mode in dsh-acp: the plan in the preview and a modal; read first, then Implement the plan beside it",
      async () => {
        await byTestId("config-mode").selectOption("plan");
        await byTestId("chat-input").fill("Plan the v2 client first");
        await byTestId("chat-input").press("Enter");
        await reviewPlan(page, { planText: "Add the v2 client", choose: "Implement the plan", readFirst: true, onModal: () => shot("07b-plan-modal") });
        // plan advertised: the plan shows in the chat as dsh-acp's Markdown plan_update.
        await chat.locator('[data-testid="plan"][data-plan-id="plan"] [data-testid="plan-markdown"]', { hasText: "Add the v2 client" }).waitFor({ timeout: UI_TIMEOUT });
        await byTestId("message-agent").filter({ hasText: "Implementing the plan." }).waitFor({ timeout: UI_TIMEOUT });
        await shot("07c-plan-approved");
      },
      { soft: true },
    );
  }

  // code-server starts in Light Modern.
  for (const [theme, cls, name] of /** @type {const} */ ([
    ["Light Modern", "vs", "08-light"],
    ["Dark Modern", "vs-dark", "09-dark"],
    ["Dark High Contrast", "hc-black", "10-high-contrast"],
  ])) {
    await step(
      `the conversation in the ${theme} theme (screenshot ${name})`,
      async () => {
        await setColorTheme(page, theme);
        await page.locator(`.monaco-workbench.${cls}`).waitFor({ timeout: UI_TIMEOUT });
        await byTestId("chat-log").evaluate((log) => log.scrollTo(0, 0));
        await shot(name);
        await byTestId("chat-log").evaluate((log) => log.scrollTo(0, log.scrollHeight));
        await shot(`${name}-end`);
      },
      { soft: true },
    );
  }

  await step("restore to here on the first message: /rewind takes back each turn (files and conversation), the view drops it and what followed", async () => {
    await useTheme(page, chat, THEMES[0]);
    const first = byTestId("message-user").filter({ hasText: PROMPT.slice(0, 40) }).first();
    await first.scrollIntoViewIfNeeded();
    await both("w15-before-restore");
    const before = (await readResults(results)).length;
    await first.locator('[data-testid="restore-here"]').click();
    const { event } = await waitForResult(results, (e) => e.event === "restore", "restore", before);
    // One /rewind per model turn since: the two prompts, ask_user's and the plan's, the subagent's.
    const turns = 2 + (askPlan ? 2 : 0) + 1;
    if (event["undone"] !== turns) throw new Error(`restore undid ${String(event["undone"])} turns, want ${turns}`);
    if (event["command"] !== "/rewind") throw new Error(`restore went back with ${String(event["command"])}, want /rewind (dsh-acp offers it)`);
    await waitForFiles(dirs.ws, { "notes.md": WORKSPACE_FILES["notes.md"] });
    if ((await byTestId("message-user").filter({ hasText: PROMPT.slice(0, 40) }).count()) !== 0) throw new Error("the restored-over message is still shown");
    await both("w16-restored");
  });

  await step(
    "New tab opens another conversation in an editor tab",
    async () => {
      await viewTitleAction(page, "New Conversation in an Editor Tab").click();
      await page.locator(".tabs-container .tab", { hasText: "dsh: new conversation" }).first().waitFor({ timeout: UI_TIMEOUT });
      const tab = page.locator(`iframe.webview.ready[src*="extensionId=${extension.id}"]`).nth(1).contentFrame().locator("iframe#active-frame").contentFrame();
      await tab.locator('[data-testid="welcome"]').waitFor({ timeout: UI_TIMEOUT });
      await both("w17-second-conversation");
      // A local command gives the tab's conversation a session without a model request (the script's lines are the later steps').
      await tab.locator('[data-testid="chat-input"]').fill(TAB_PROMPT);
      await tab.locator('[data-testid="chat-input"]').press("Enter");
      await tab.locator('[data-testid="message-agent"]').first().waitFor({ timeout: UI_TIMEOUT });
      tabTitle = (await page.locator(".tabs-container .tab.active").first().innerText()).trim();
    },
    { soft: true },
  );

  // Edit and resend, a dropped image, History's search, rename and delete (lib/conversations.mjs).
  await runConversations({ page, chat, stateDir, artifacts, step, both, missed });
  await runOpenElsewhere({ page, chat, tabTitle, step });

  await step(
    "a window reload brings the conversation tab back, its conversation replayed",
    async () => {
      if (tabTitle === undefined) throw new Error("no conversation tab was opened");
      await reloadKeepsTab({ page, extensionId: extension.id, tabTitle, text: TAB_PROMPT });
      await shot("w26-tab-after-reload");
    },
    { soft: true },
  );

  return failures;
}

/**
 * The checks that need the agent stopped (dsh-acp writes its session
 * store out when it exits): the second prompt carried a note telling the
 * agent that config.txt was rejected, on its own lines. Returns the
 * failures.
 * @param {{ dirs: import("./prepare.mjs").RunDirs, stateDir: string }} options
 * @returns {Promise<string[]>}
 */
export async function checkStoredSession({ dirs, stateDir }) {
  const text = await allText(stateDir);
  const rejected = escapeRegExp(join(dirs.ws, "config.txt"));
  /** @type {string[]} */
  const failures = [];
  // Restore to here took the turns back from dsh-acp's conversation too (not only from the view).
  if (!text.includes('"kind":"conversation/rewound"')) failures.push(`no stored session under ${stateDir} records a rewind: restore to here left the turns in the agent's conversation`);
  if (!text.includes("notes.md#L1-L2")) failures.push(`no stored prompt under ${stateDir} carries the selected lines of notes.md (notes.md#L1-L2)`);
  if (!text.includes(`file://${join(dirs.ws, "greet.sh")}`)) failures.push(`no stored prompt under ${stateDir} carries the mentioned greet.sh`);
  if (!new RegExp(`undid[^"]*${escapeRegExp(join(dirs.ws, "hunks.txt"))}`, "i").test(text)) failures.push(`no stored message under ${stateDir} tells the agent that part of hunks.txt was undone`);
  if (!new RegExp(`reject[^"]*${rejected}`, "i").test(text)) {
    failures.push(`no stored message under ${stateDir} tells the agent that config.txt was rejected`);
  } else if (!new RegExp(`${escapeRegExp(SECOND_PROMPT)}[^"\\\\]*(?:\\\\n){2}Note from the editor: `).test(text)) {
    // dsh-acp joins a prompt's adjacent text blocks as they are: the user's words come first, the editor's notes after them on their own lines.
    failures.push(`the prompt "${SECOND_PROMPT}" is not followed by the editor's notes on their own lines (a blank line between)`);
  }
  return failures;
}

/**
 * Escapes s for use as a literal inside a regular expression.
 * @param {string} s
 * @returns {string}
 */
function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Waits until every file in want holds its text, failing with the differences.
 * @param {string} dir
 * @param {Readonly<Record<string, string>>} want name → text
 * @returns {Promise<void>}
 */
async function waitForFiles(dir, want) {
  const deadline = Date.now() + UI_TIMEOUT;
  for (;;) {
    /** @type {string[]} */
    const wrong = [];
    for (const [name, text] of Object.entries(want)) {
      const got = await readFile(join(dir, name), "utf8").catch((/** @type {unknown} */ err) => `<${String(errnoCode(err))}>`);
      if (got !== text) wrong.push(`${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(text)}`);
    }
    if (!wrong.length) return;
    if (Date.now() > deadline) throw new Error(wrong.join("; "));
    await new Promise((r) => setTimeout(r, 200));
  }
}
