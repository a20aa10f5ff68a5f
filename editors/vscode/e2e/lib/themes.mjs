// Screenshots of a step in the light and the dark theme, the theme
// picked through the command palette as a user does (code-server does not
// pick up a settings.json written under it). Focus goes to the active
// editor's tab first, so an editor's selection stays as it is; no modal
// dialog may be open.
import { join } from "node:path";
import { UI_TIMEOUT } from "./workbench.mjs";

/** The themes each step is shown in: the picker's name, the workbench's class, the webview body's class, the file suffix. */
export const THEMES = /** @type {const} */ ([
  { name: "Light Modern", workbench: "vs", webview: "vscode-light", suffix: "light" },
  { name: "Dark Modern", workbench: "vs-dark", webview: "vscode-dark", suffix: "dark" },
]);

/**
 * Picks theme and waits until the workbench and the chat webview wear it.
 * @param {import("./workbench.mjs").Page} page
 * @param {import("./workbench.mjs").FrameLocator} chat the chat webview
 * @param {(typeof THEMES)[number]} theme
 * @returns {Promise<void>}
 */
export async function useTheme(page, chat, theme) {
  await setColorTheme(page, theme.name);
  await page.locator(`.monaco-workbench.${theme.workbench}`).waitFor({ timeout: UI_TIMEOUT });
  await chat.locator(`body.${theme.webview}`).waitFor({ timeout: UI_TIMEOUT });
}

/**
 * Takes name-dark.png and name-light.png of the page as it is, and leaves
 * it in the light theme.
 * @param {import("./workbench.mjs").Page} page
 * @param {import("./workbench.mjs").FrameLocator} chat
 * @param {string} dir where the screenshots go
 * @param {string} name
 * @returns {Promise<void>}
 */
export async function shotInThemes(page, chat, dir, name) {
  for (const theme of [THEMES[1], THEMES[0]]) {
    await useTheme(page, chat, theme);
    await page.screenshot({ path: join(dir, `${name}-${theme.suffix}.png`) });
  }
}

/**
 * Takes name-dark.png and name-light.png of a passing state of the
 * workbench (a QuickPick, an input box, a modal dialog), which picking a
 * theme in the command palette would close: in each theme show() brings
 * it up before the shot and hide() takes it down after. A theme that
 * cannot be picked is told to missed and its shot left out; show() or
 * hide() failing fails it. Leaves the light theme on (when it could be
 * picked).
 * @param {import("./workbench.mjs").Page} page
 * @param {import("./workbench.mjs").FrameLocator} chat
 * @param {string} dir where the screenshots go
 * @param {string} name
 * @param {{ show: () => Promise<unknown>, hide: () => Promise<unknown>, missed: (name: string, err: unknown) => Promise<void> }} around
 * @returns {Promise<void>}
 */
export async function shotPassingInThemes(page, chat, dir, name, { show, hide, missed }) {
  for (const theme of [THEMES[1], THEMES[0]]) {
    try {
      await useTheme(page, chat, theme);
    } catch (err) {
      await missed(`${name}-${theme.suffix}`, err);
      continue;
    }
    await show();
    // A quick input fades in: the shot is of it shown, not half there.
    await page.screenshot({ path: join(dir, `${name}-${theme.suffix}.png`), animations: "disabled" });
    await hide();
  }
}

/**
 * Picks the workbench's colour theme as a user does: the command palette's
 * "Preferences: Color Theme", then the theme by name. Needs no modal
 * dialog open; focus goes to the active editor's tab first (its
 * selection stays), or to the empty editor area.
 * @param {import("./workbench.mjs").Page} page
 * @param {string} theme the name the picker shows ("Light Modern", "Dark High Contrast", …)
 * @returns {Promise<void>}
 */
export async function setColorTheme(page, theme) {
  const input = page.locator(".quick-input-widget input");
  // The palette can close as it opens, when focus moves on (a webview
  // taking it back, a notification settling): open it again, a few times.
  // A webview keeps the keyboard (a Markdown preview of a plan under
  // review, a dsh conversation tab): F1 there may never reach the
  // workbench. Focus goes to a tab that is neither.
  const tabs = page.locator(".part.editor .tabs-container .tab").filter({ hasNotText: /^\s*(Preview |dsh: )/ });
  // A dsh conversation tab that was in front comes back to the front after the switch.
  const front = page.locator(".part.editor .tabs-container .tab.active").first();
  const frontLabel = (await front.count()) ? (await front.innerText()).trim().split("\n")[0] : undefined;
  for (let attempt = 1; ; attempt++) {
    const active = tabs.and(page.locator(".tab.active")).first();
    const tab = (await active.count()) ? active : tabs.first();
    if (await tab.count()) await tab.click();
    else await page.locator(".part.editor").first().click({ position: { x: 200, y: 200 } });
    // Focus leaves a webview (the chat's input) a moment after the click: F1 before that goes to the
    // webview, and the palette it opens closes when the editor then takes the focus.
    await page.waitForFunction(() => document.activeElement?.closest(".part.editor") != null, undefined, { timeout: UI_TIMEOUT / 6 }).catch(() => undefined);
    await page.keyboard.press("F1");
    try {
      await input.fill(">Preferences: Color Theme", { timeout: UI_TIMEOUT / 6 });
      break;
    } catch (err) {
      if (attempt === 5) throw err;
      // Escape only a palette still open: in the editor it would drop the selection.
      const widget = page.locator(".quick-input-widget").first();
      if (await widget.isVisible()) await page.keyboard.press("Escape");
      await widget.waitFor({ state: "hidden", timeout: UI_TIMEOUT });
    }
  }
  // Not "Preferences: Browse Color Themes in Marketplace", which needs the network.
  await page.locator(".quick-input-list .monaco-list-row", { hasText: /^\s*Preferences: Color Theme(?!s)/ }).first().click({ timeout: UI_TIMEOUT });
  await page.locator(".quick-input-list .monaco-list-row", { hasText: /Light Modern/ }).first().waitFor({ timeout: UI_TIMEOUT });
  await input.fill(theme);
  // The picker labels the themes "Light Modern", "Dark High Contrast", … (no "Default").
  await page.locator(".quick-input-list .monaco-list-row", { hasText: theme }).first().click({ timeout: UI_TIMEOUT });
  if (frontLabel?.startsWith("dsh: ")) await page.locator(".part.editor .tabs-container .tab", { hasText: frontLabel }).first().click({ timeout: UI_TIMEOUT });
}
