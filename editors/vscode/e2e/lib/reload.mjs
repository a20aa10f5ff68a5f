// The window reloads of the main scenario: in the middle of the review
// (the review list comes back, see scenario.mjs), and at the end, where the
// conversation in an editor tab comes back in its tab, its session
// replayed (the Agent view reopens its own last one, see the stand-in
// pass's reload).
import { readFile, rename, writeFile } from "node:fs/promises";
import { UI_TIMEOUT, openViewContainer } from "./workbench.mjs";

/**
 * The chat frame (one per webview of the extension) whose log holds a user message with text; undefined when none does.
 * @param {import("./workbench.mjs").Page} page
 * @param {string} extensionId
 * @param {string} text
 * @returns {Promise<import("./workbench.mjs").FrameLocator | undefined>}
 */
async function chatShowing(page, extensionId, text) {
  const frames = page.locator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`);
  for (let i = 0; i < (await frames.count()); i++) {
    const frame = frames.nth(i).contentFrame().locator("iframe#active-frame").contentFrame();
    if ((await frame.locator('[data-testid="message-user"]', { hasText: text }).count()) > 0) return frame;
  }
  return undefined;
}

/**
 * Drops the lines of the model script up to and including the first whose
 * text holds lastAnswer: a reload restarts dsh-acp, whose scripted model
 * reads the script from the top, and the model must go on from the next
 * answer. The script is written whole (a temporary file, renamed).
 * @param {string} script
 * @param {string} lastAnswer
 * @returns {Promise<void>}
 */
export async function dropAnswered(script, lastAnswer) {
  const lines = (await readFile(script, "utf8")).split("\n");
  const last = lines.findIndex((l) => l.includes(lastAnswer));
  if (last < 0) throw new Error(`the model script ${script} has no answer ${JSON.stringify(lastAnswer)}`);
  await writeFile(`${script}.next`, lines.slice(last + 1).join("\n"));
  await rename(`${script}.next`, script);
}

/**
 * Reloads the window (the extension host starts again) and waits for the workbench.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<void>}
 */
export async function reloadWindow(page) {
  await page.reload();
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
}

/**
 * Shows the view container title (its activity-bar icon's label, as
 * "Explorer") in the side bar, then reloads the window with it shown. The
 * workbench writes which container is shown a moment after the switch: a
 * reload that came first brings the old one back, and is tried again.
 * @param {import("./workbench.mjs").Page} page
 * @param {string} title
 * @returns {Promise<void>}
 */
export async function reloadShowing(page, title) {
  const shown = page.locator(".part.sidebar .composite.title", { hasText: title });
  for (let attempt = 1; ; attempt++) {
    await openViewContainer(page, title);
    await shown.waitFor({ timeout: UI_TIMEOUT });
    await reloadWindow(page);
    await page.locator(".part.sidebar .composite.title").first().waitFor({ timeout: UI_TIMEOUT });
    if ((await shown.count()) > 0) return;
    if (attempt === 3) throw new Error(`after ${attempt} reloads the side bar does not show ${title}`);
  }
}

/**
 * Reloads the window and checks that the editor tab titled tabTitle is
 * back, showing a conversation with the user's message text.
 * @param {{ page: import("./workbench.mjs").Page, extensionId: string, tabTitle: string, text: string }} options
 * @returns {Promise<void>}
 */
export async function reloadKeepsTab({ page, extensionId, tabTitle, text }) {
  await reloadWindow(page);
  const tab = page.locator(".tabs-container .tab", { hasText: tabTitle }).first();
  await tab.waitFor({ timeout: UI_TIMEOUT });
  await tab.click();
  const deadline = Date.now() + UI_TIMEOUT;
  while (!(await chatShowing(page, extensionId, text))) {
    if (Date.now() > deadline) throw new Error(`after the reload, the tab "${tabTitle}" does not show its conversation (no message "${text}")`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
