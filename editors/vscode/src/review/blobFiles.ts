import * as vscode from "vscode";
import type { TextBlobs } from "./storedReviews";

/**
 * The kept review's texts as files in dir (the extension's workspace
 * storage): each written to a temporary name, then renamed, so a reader
 * never sees half a text.
 */
export function blobFiles(dir: vscode.Uri): TextBlobs {
  const file = (name: string): vscode.Uri => vscode.Uri.joinPath(dir, name);
  return {
    async read(name) {
      try {
        return new TextDecoder().decode(await vscode.workspace.fs.readFile(file(name)));
      } catch {
        return undefined;
      }
    },
    async write(name, text) {
      await vscode.workspace.fs.createDirectory(dir);
      const part = file(`${name}.part`);
      await vscode.workspace.fs.writeFile(part, new TextEncoder().encode(text));
      await vscode.workspace.fs.rename(part, file(name), { overwrite: true });
    },
    async remove(name) {
      await vscode.workspace.fs.delete(file(name)).then(undefined, () => undefined);
    },
    async names() {
      try {
        return (await vscode.workspace.fs.readDirectory(dir)).map(([name]) => name);
      } catch {
        return [];
      }
    },
  };
}
