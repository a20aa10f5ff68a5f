import * as vscode from "vscode";

/** The open TextDocument for an absolute path, if the editor holds one. */
export function openDocument(path: string): vscode.TextDocument | undefined {
  const fsPath = vscode.Uri.file(path).fsPath;
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === fsPath);
}

/**
 * A file's current text: the open document's (unsaved changes included)
 * when there is one, else the file on disk; undefined when neither exists.
 */
export async function currentText(path: string): Promise<string | undefined> {
  const doc = openDocument(path);
  if (doc) return doc.getText();
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(path));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/** The range covering all of doc. */
export function wholeDocument(doc: vscode.TextDocument): vscode.Range {
  return new vscode.Range(new vscode.Position(0, 0), doc.positionAt(doc.getText().length));
}
