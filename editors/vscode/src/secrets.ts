import * as vscode from "vscode";

/** The SecretStorage key holding the model's API key. */
export const API_KEY_SECRET = "dsh.apiKey";

/**
 * Asks for the API key (input hidden) and stores it in SecretStorage; an
 * empty answer removes the stored key. Returns what changed: "stored",
 * "removed", or undefined when the input was dismissed.
 */
export async function promptForApiKey(secrets: vscode.SecretStorage): Promise<"stored" | "removed" | undefined> {
  const key = await vscode.window.showInputBox({
    title: "dsh: Set API Key",
    prompt: "Your model provider's API key (kept in VS Code's secret storage; leave it empty to remove the stored key)",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return undefined;
  if (key.trim() === "") {
    await secrets.delete(API_KEY_SECRET);
    return "removed";
  }
  await secrets.store(API_KEY_SECRET, key.trim());
  return "stored";
}
