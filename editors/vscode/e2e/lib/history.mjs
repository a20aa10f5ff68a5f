// Driving the extension's History in the workbench: the QuickPick
// "dsh: conversations" the chat's History button opens (newest first, each
// row a conversation with its date as the description, its buttons Rename
// and Delete), the search typed into it, and the input box Rename asks in.
import { UI_TIMEOUT, viewTitleAction } from "./workbench.mjs";

const TITLE = "dsh: conversations";
const RENAME_TITLE = "Rename the conversation";

/**
 * One row of the list as it shows: its label and its description (the date, "(open)" after the open one).
 * @typedef {{ label: string, description: string }} HistoryRow
 */

/**
 * The History QuickPick, once open.
 * @param {import("./workbench.mjs").Page} page
 */
function widget(page) {
  return page.locator(".quick-input-widget", { has: page.locator(".quick-input-title", { hasText: TITLE }) });
}

/**
 * Clicks the side bar's History action (its view title's) and waits for
 * the list with its rows.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<void>}
 */
export async function openHistory(page) {
  await viewTitleAction(page, "Conversations (Search, Open, Rename, Delete)").click();
  await widget(page).locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: UI_TIMEOUT });
}

/**
 * Waits for History to show afresh after a rename or a delete. The list
 * shown before stays on screen, its search typed in, under the prompt and
 * for a moment after it closes; the new one starts with an empty search.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<void>}
 */
export async function historyShownAgain(page) {
  await page.waitForFunction(
    (title) =>
      [...document.querySelectorAll(".quick-input-widget")].some((w) => {
        const shown = w instanceof HTMLElement && w.offsetParent !== null && w.querySelector(".quick-input-title")?.textContent.includes(title);
        const input = w.querySelector(".quick-input-box input");
        return shown && input instanceof HTMLInputElement && input.value === "" && w.querySelector(".quick-input-list .monaco-list-row") !== null;
      }),
    TITLE,
    { timeout: UI_TIMEOUT },
  );
}

/**
 * The rows the list shows now.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<HistoryRow[]>}
 */
export async function historyRows(page) {
  return widget(page)
    .locator(".quick-input-list .monaco-list-row")
    .evaluateAll((rows) =>
      rows.map((r) => ({
        label: r.querySelector(".label-name")?.textContent.trim() ?? "",
        description: r.querySelector(".label-description")?.textContent.trim() ?? "",
      })),
    );
}

/**
 * Types query into the list's search box and waits until it shows only
 * rows whose label contains label (at least one).
 * @param {import("./workbench.mjs").Page} page
 * @param {string} query
 * @param {string} label
 * @returns {Promise<void>}
 */
export async function searchHistory(page, query, label) {
  await widget(page).locator(".quick-input-box input").first().fill(query);
  await page.waitForFunction(
    ({ title, want }) => {
      const box = [...document.querySelectorAll(".quick-input-widget")].find((w) => w.querySelector(".quick-input-title")?.textContent.includes(title));
      const labels = [...(box?.querySelectorAll(".quick-input-list .monaco-list-row .label-name") ?? [])].map((l) => l.textContent);
      return labels.length > 0 && labels.every((l) => l.includes(want));
    },
    { title: TITLE, want: label },
    { timeout: UI_TIMEOUT },
  );
}

/**
 * Clicks a row's button (its codicon: "edit" for Rename, "trash" for
 * Delete). The buttons show on the focused or hovered row: the row is
 * hovered first.
 * @param {import("./workbench.mjs").Page} page
 * @param {string} label the row's label
 * @param {"Rename" | "Delete"} button
 * @returns {Promise<void>}
 */
export async function clickRowButton(page, label, button) {
  const row = widget(page).locator(".quick-input-list .monaco-list-row", { has: page.locator(".label-name", { hasText: label }) }).first();
  await row.hover();
  const icon = button === "Rename" ? "codicon-edit" : "codicon-trash";
  await row.locator(`.action-label.${icon}, .action-label[aria-label="${button}"]`).first().click({ timeout: UI_TIMEOUT });
}

/**
 * Waits for Rename's input box (the title it offers first must be was),
 * and types title into it; with enter, presses Enter.
 * @param {import("./workbench.mjs").Page} page
 * @param {{ was: string, title?: string, enter?: boolean }} options
 * @returns {Promise<void>}
 */
export async function fillRename(page, { was, title, enter = false }) {
  const box = page.locator(".quick-input-widget", { has: page.locator(".quick-input-title", { hasText: RENAME_TITLE }) });
  const input = box.locator(".quick-input-box input").first();
  await input.waitFor({ timeout: UI_TIMEOUT });
  const offered = await input.inputValue();
  if (offered !== was) throw new Error(`Rename offers ${JSON.stringify(offered)}, want the title ${JSON.stringify(was)}`);
  if (title !== undefined) await input.fill(title);
  if (enter) await input.press("Enter");
}

/**
 * Leaves Rename's input box with Escape (nothing renamed): the list shows
 * again, and is closed too.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<void>}
 */
export async function leaveRename(page) {
  await escape(page);
  await widget(page).locator(".quick-input-list .monaco-list-row").first().waitFor({ timeout: UI_TIMEOUT });
  await closeQuickInput(page);
}

/**
 * Closes the quick input shown (Escape) and waits until it is gone.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<void>}
 */
export async function closeQuickInput(page) {
  await escape(page);
  await page.locator(".quick-input-widget").filter({ visible: true }).first().waitFor({ state: "detached", timeout: UI_TIMEOUT });
}

/**
 * Presses Escape in the quick input shown. History's list stays open when
 * focus leaves it (to the chat view, say), so its box is focused first.
 * @param {import("./workbench.mjs").Page} page
 * @returns {Promise<void>}
 */
async function escape(page) {
  const box = page.locator(".quick-input-widget .quick-input-box input").filter({ visible: true }).first();
  await box.focus({ timeout: UI_TIMEOUT });
  await box.press("Escape");
}
