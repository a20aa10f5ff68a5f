// The steps that answer the agent's questions in the workbench: an
// ask_user form walked as QuickPick / InputBox steps, and a plan review
// (the plan in the Markdown preview, Implement / Keep planning in a
// notification beside it). Shared by the stand-in agent's pass
// (standIn.mjs) and dsh-acp's own ask_user and plan mode in the main
// scenario (unless DSH_E2E_ASK_PLAN=0).
import { UI_TIMEOUT, waitForPrompt } from "./workbench.mjs";

/**
 * One step of a form: pick the option labelled choice, or type text.
 * @typedef {{ readonly question: string, readonly choice: string } | { readonly question: string, readonly text: string }} FormStep
 */

/**
 * Answers each step of the form the agent asks, in order: the step's
 * QuickPick or InputBox is the one titled with its question. A step is
 * done when the widget's title no longer names its question (the next
 * step's prompt may quote it).
 * @param {import("./workbench.mjs").Page} page
 * @param {readonly FormStep[]} steps
 * @returns {Promise<void>}
 */
export async function answerForm(page, steps) {
  for (const step of steps) {
    // By its title: the next step's own text may quote this question (dsh-acp's own-words field does).
    const widget = page.locator(".quick-input-widget", { has: page.locator(".quick-input-title", { hasText: step.question }) });
    await widget.waitFor({ timeout: UI_TIMEOUT });
    if ("choice" in step) {
      const prompt = await waitForPrompt(page, step.question);
      await prompt.click(step.choice);
    } else {
      // The text box, not the QuickPick's select-all checkbox.
      const input = widget.locator(".quick-input-box input").first();
      await input.fill(step.text);
      await input.press("Enter");
    }
    await widget.waitFor({ state: "hidden", timeout: UI_TIMEOUT });
  }
}

/**
 * Waits for the plan review: the plan open in the editor area (a tab
 * named Plan.md, its preview) and the notification beside it with both
 * choices; checks the plan shows planText, then chooses.
 * @param {import("./workbench.mjs").Page} page
 * @param {{ planText: string, choose: "Implement the plan" | "Keep planning" }} options
 * @returns {Promise<string[]>} the notification's buttons
 */
export async function reviewPlan(page, { planText, choose }) {
  const prompt = await waitForPrompt(page, "dsh has a plan");
  if (prompt.kind !== "notification") throw new Error(`the plan review is a ${prompt.kind}, want a notification beside the plan`);
  await page.locator(".tabs-container .tab", { hasText: "Plan.md" }).first().waitFor({ timeout: UI_TIMEOUT });
  // The Markdown preview is a webview of its own; the source is an editor.
  const preview = page.frameLocator('iframe.webview.ready[src*="markdown-language-features"]').frameLocator("iframe#active-frame").locator("body", { hasText: planText });
  const source = page.locator(".part.editor .view-lines", { hasText: planText });
  await preview.or(source).first().waitFor({ timeout: UI_TIMEOUT });
  const buttons = await prompt.buttons();
  for (const want of ["Implement the plan", "Keep planning", "Show plan"]) {
    if (!buttons.includes(want)) throw new Error(`the plan review lacks ${want}: ${JSON.stringify(buttons)}`);
  }
  await prompt.click(choose);
  return buttons;
}
