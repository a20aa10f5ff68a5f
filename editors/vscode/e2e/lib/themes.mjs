// Screenshots of a step in the light and the dark theme. The theme is
// switched through the user's settings.json (VS Code applies the change
// as it watches the file), so it works with a modal dialog open too; each
// switch waits until the workbench and the chat webview wear the theme.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { UI_TIMEOUT } from "./workbench.mjs";

/** The themes each step is shown in: settings value, workbench class, webview body class, file suffix. */
export const THEMES = /** @type {const} */ ([
  { setting: "Default Light Modern", workbench: "vs", webview: "vscode-light", suffix: "light" },
  { setting: "Default Dark Modern", workbench: "vs-dark", webview: "vscode-dark", suffix: "dark" },
]);

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
  await page.locator(`.monaco-workbench.${theme.workbench}`).waitFor({ timeout: UI_TIMEOUT });
  await chat.locator(`body.${theme.webview}`).waitFor({ timeout: UI_TIMEOUT });
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
