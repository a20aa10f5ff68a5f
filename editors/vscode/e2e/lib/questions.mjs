// The steps that answer the agent's questions in the workbench: an
// ask_user form walked as QuickPick / InputBox steps, and a plan review
// (the plan in the Markdown preview, Implement / Keep planning in a modal
// over it, or in a notification beside it once the user reads first). Shared by the stand-in agent's pass
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
 * named Plan.md, its preview) and a modal over it with both choices, "Read
 * the plan first" and the plan's start; checks both show planText. With
 * readFirst, leaves the modal through "Read the plan first" and chooses
 * in the notification beside the preview (which offers "Show plan" too);
 * else chooses in the modal. onModal runs while the modal is up (a screenshot).
 * @param {import("./workbench.mjs").Page} page
 * @param {{ planText: string, choose: "Implement the plan" | "Keep planning", readFirst?: boolean, onModal?: () => Promise<unknown> }} options
 * @returns {Promise<string[]>} the buttons of the prompt chosen in
 */
export async function reviewPlan(page, { planText, choose, readFirst = false, onModal }) {
  const modal = await waitForPrompt(page, "dsh has a plan");
  if (modal.kind !== "dialog") throw new Error(`the plan review is a ${modal.kind}, want a modal`);
  await modal.el.locator(".dialog-message-detail", { hasText: planText }).waitFor({ timeout: UI_TIMEOUT });
  await page.locator(".tabs-container .tab", { hasText: "Plan.md" }).first().waitFor({ timeout: UI_TIMEOUT });
  // The Markdown preview is a webview of its own; the source is an editor.
  const preview = page.frameLocator('iframe.webview.ready[src*="markdown-language-features"]').frameLocator("iframe#active-frame").locator("body", { hasText: planText });
  const source = page.locator(".part.editor .view-lines", { hasText: planText });
  await preview.or(source).first().waitFor({ state: "attached", timeout: UI_TIMEOUT });
  const asked = await modal.buttons();
  for (const want of ["Implement the plan", "Keep planning", "Read the plan first"]) {
    if (!asked.includes(want)) throw new Error(`the plan review's modal lacks ${want}: ${JSON.stringify(asked)}`);
  }
  if (onModal) await onModal();
  if (!readFirst) {
    await modal.click(choose);
    return asked;
  }
  await modal.click("Read the plan first");
  await modal.el.waitFor({ state: "hidden", timeout: UI_TIMEOUT });
  const beside = await waitForPrompt(page, "dsh has a plan");
  if (beside.kind !== "notification") throw new Error(`after "Read the plan first" the question is a ${beside.kind}, want a notification beside the plan`);
  await preview.or(source).first().waitFor({ timeout: UI_TIMEOUT });
  const buttons = await beside.buttons();
  for (const want of ["Implement the plan", "Keep planning", "Show plan"]) {
    if (!buttons.includes(want)) throw new Error(`the plan review beside the plan lacks ${want}: ${JSON.stringify(buttons)}`);
  }
  await beside.click(choose);
  return buttons;
}
