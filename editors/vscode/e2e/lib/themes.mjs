// Screenshots of a step in the light and the dark theme. The theme is
// switched through the user's settings.json (VS Code applies the change
// as it watches the file), so it works with a modal dialog open too; each
// switch waits until the workbench and the chat webview wear the theme.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UI_TIMEOUT } from "./workbench.mjs";

/** The themes each step is shown in: settings value, workbench class, webview body class, file suffix. */
export const THEMES = /** @type {const} */ ([
  { setting: "Light Modern", workbench: "vs", webview: "vscode-light", suffix: "light" },
  { setting: "Dark Modern", workbench: "vs-dark", webview: "vscode-dark", suffix: "dark" },
]);

/** How long the settings file is given to take effect before the command palette is used instead. */
const SETTINGS_GRACE = 10_000;

/**
 * Sets the colour theme in the user's settings and waits for it to show.
 * @param {import("./workbench.mjs").Page} page
 * @param {import("./workbench.mjs").FrameLocator} chat the chat webview
 * @param {string} dataDir code-server's user data directory
 * @param {(typeof THEMES)[number]} theme
 * @returns {Promise<void>}
 */
export async function useTheme(page, chat, dataDir, theme) {
  const file = join(dataDir, "User", "settings.json");
  /** @type {unknown} */
  const json = JSON.parse(await readFile(file, "utf8"));
  const settings = /** @type {Record<string, unknown>} */ (json);
  if (settings["workbench.colorTheme"] !== theme.setting) {
    settings["workbench.colorTheme"] = theme.setting;
    await writeFile(file, JSON.stringify(settings, null, 2));
  }
  const workbench = page.locator(`.monaco-workbench.${theme.workbench}`);
  try {
    await workbench.waitFor({ timeout: SETTINGS_GRACE });
  } catch {
    // The file was not picked up (yet): pick the theme as a user does.
    await setColorTheme(page, theme.setting);
    await workbench.waitFor({ timeout: UI_TIMEOUT });
  }
  await chat.locator(`body.${theme.webview}`).waitFor({ timeout: UI_TIMEOUT });
}

/**
 * Picks the workbench's colour theme as a user does: the command palette's
 * "Preferences: Color Theme", then the theme by name. Needs no modal
 * dialog open; focus goes to the editor area first.
 * @param {import("./workbench.mjs").Page} page
 * @param {string} theme the name the picker shows ("Light Modern", "Dark High Contrast", …)
 * @returns {Promise<void>}
 */
export async function setColorTheme(page, theme) {
  const editor = page.locator(".part.editor .monaco-editor .view-lines").first();
  if (await editor.count()) await editor.click();
  else await page.locator(".part.editor").first().click({ position: { x: 200, y: 200 } });
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ timeout: UI_TIMEOUT });
  await input.fill(">Preferences: Color Theme");
  // Not "Preferences: Browse Color Themes in Marketplace", which needs the network.
  await page.locator(".quick-input-list .monaco-list-row", { hasText: /^\s*Preferences: Color Theme(?!s)/ }).first().click({ timeout: UI_TIMEOUT });
  await page.locator(".quick-input-list .monaco-list-row", { hasText: /Light Modern/ }).first().waitFor({ timeout: UI_TIMEOUT });
  await input.fill(theme);
  // The picker labels the themes "Light Modern", "Dark High Contrast", … (no "Default").
  await page.locator(".quick-input-list .monaco-list-row", { hasText: theme }).first().click({ timeout: UI_TIMEOUT });
}

/**
 * Takes name-light.png and name-dark.png of the page as it is, and leaves
 * it in the light theme.
 * @param {import("./workbench.mjs").Page} page
 * @param {import("./workbench.mjs").FrameLocator} chat
 * @param {string} dataDir
 * @param {string} dir where the screenshots go
 * @param {string} name
 * @returns {Promise<void>}
 */
export async function shotInThemes(page, chat, dataDir, dir, name) {
  for (const theme of [...THEMES.slice(1), THEMES[0]]) {
    await useTheme(page, chat, dataDir, theme);
    await page.screenshot({ path: join(dir, `${name}-${theme.suffix}.png`) });
  }
}
