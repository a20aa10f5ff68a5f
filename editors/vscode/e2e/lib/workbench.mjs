// Driving the VS Code workbench that code-server serves, through chromium:
// the activity bar, the extension's webview, native prompts, the terminal
// panel and the diff editor. Every wait has a generous hang guard;
// nothing asserts on timing.
import { chromium } from "playwright-core";

/** Hang guard for each UI wait. */
export const UI_TIMEOUT = 30_000;

/** The chromium flags that work headless on a machine without a GPU or network. */
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** @typedef {import("playwright-core").Page} Page */
/** @typedef {import("playwright-core").FrameLocator} FrameLocator */
/** @typedef {import("playwright-core").Locator} Locator */

/**
 * Launches chromium and opens the workbench at url; returns the browser, the page and its errors so far.
 * @param {{ chromiumPath: string, url: string }} options
 * @returns {Promise<{ browser: import("playwright-core").Browser, page: Page, pageErrors: string[] }>}
 */
export async function openWorkbench({ chromiumPath, url }) {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  /** @type {string[]} */
  const pageErrors = [];
  page.on("pageerror", (err) => pageErrors.push(String(err)));
  await page.goto(url);
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  return { browser, page, pageErrors };
}

/**
 * Opens a view container by clicking its icon in the activity bar.
 * @param {Page} page
 * @param {string} title
 * @returns {Promise<void>}
 */
export async function openViewContainer(page, title) {
  await page.locator(`.activitybar .action-item .action-label[aria-label^="${title}"]`).first().click({ timeout: UI_TIMEOUT });
}

/**
 * A button of the side bar's title (its view's title actions, package.json
 * view/title: the one view's merge into the container's title), by its
 * command's title.
 * @param {Page} page
 * @param {string} title
 * @returns {Locator}
 */
export function viewTitleAction(page, title) {
  return page.locator(`.part.sidebar .action-label[aria-label="${title}"]`).first();
}

/**
 * The frame of the extension's webview view: VS Code puts each webview in
 * an iframe whose src names the extension, holding the content in an inner
 * iframe #active-frame. The first such frame is the Agent view's (an
 * editor tab's conversation, opened later, comes after it).
 * @param {Page} page
 * @param {string} extensionId
 * @returns {FrameLocator}
 */
export function webviewFrame(page, extensionId) {
  return page.locator(`iframe.webview.ready[src*="extensionId=${extensionId}"]`).first().contentFrame().locator("iframe#active-frame").contentFrame();
}

/**
 * Waits for a native prompt (a modal dialog, a notification toast or a
 * quick pick) whose text contains text. Returns its kind, its element,
 * buttons() listing its options' labels, and click(label) choosing the
 * option labelled exactly label.
 * @param {Page} page
 * @param {string} text
 * @returns {Promise<{ kind: "dialog" | "notification" | "quickpick", el: Locator, buttons: () => Promise<string[]>, click: (label: string) => Promise<void> }>}
 */
export async function waitForPrompt(page, text) {
  const dialog = page.locator(".monaco-dialog-box", { hasText: text });
  const toast = page.locator(".notification-toast", { hasText: text });
  const pick = page.locator(".quick-input-widget", { hasText: text });
  const any = dialog.or(toast).or(pick).first();
  await any.waitFor({ timeout: UI_TIMEOUT });
  /** @type {["dialog" | "notification" | "quickpick", Locator, string]} */
  const [kind, el, option] = (await dialog.count())
    ? ["dialog", dialog.first(), ".dialog-buttons .monaco-button"]
    : (await toast.count())
      ? ["notification", toast.first(), ".monaco-button"]
      : ["quickpick", pick.first(), ".quick-input-list .monaco-list-row"];
  /** @param {string} label */
  const exact = (label) => new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);
  return {
    kind,
    el,
    buttons: async () => (await el.locator(option).allInnerTexts()).map((t) => t.trim()),
    click: (label) => el.locator(option, { hasText: exact(label) }).first().click(),
  };
}

/**
 * Waits until a terminal in the panel shows text, and returns the terminal's text.
 * @param {Page} page
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function waitForTerminalText(page, text) {
  const rows = page.locator(".terminal-wrapper .xterm-rows", { hasText: text }).first();
  await rows.waitFor({ timeout: UI_TIMEOUT });
  return rows.innerText();
}

/**
 * The titles of the terminals in the panel (tabs, or the single terminal's header).
 * @param {Page} page
 * @returns {Promise<string[]>}
 */
export async function terminalTitles(page) {
  return page.locator(".terminal-tabs-entry, .single-terminal-tab").allInnerTexts();
}

/**
 * Waits for a diff editor whose tab is titled title and whose modified
 * side shows text, and returns the tab's title.
 * @param {Page} page
 * @param {string} title
 * @param {string} text
 * @returns {Promise<string>}
 */
export async function waitForDiffEditor(page, title, text) {
  const tab = page.locator(".tabs-container .tab", { hasText: title }).first();
  await tab.waitFor({ timeout: UI_TIMEOUT });
  await page.locator(".monaco-diff-editor .editor.modified .view-lines", { hasText: text }).first().waitFor({ timeout: UI_TIMEOUT });
  return tab.innerText();
}
