import * as vscode from "vscode";

/** The SecretStorage key holding the model's API key. */
export const API_KEY_SECRET = "dsh.apiKey";

/**
 * Asks for the API key (input hidden) and stores it in SecretStorage; an
 * empty answer removes the stored key. Returns whether it changed.
 */
export async function promptForApiKey(secrets: vscode.SecretStorage): Promise<boolean> {
  const key = await vscode.window.showInputBox({
    title: "dsh: Set API Key",
    prompt: "The model provider's API key (stored in VS Code's secret storage; empty removes it)",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return false;
  if (key.trim() === "") await secrets.delete(API_KEY_SECRET);
  else await secrets.store(API_KEY_SECRET, key.trim());
  return true;
}
