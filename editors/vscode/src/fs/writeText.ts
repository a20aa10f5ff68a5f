import * as vscode from "vscode";
import { openDocument, wholeDocument } from "./documents";

/**
 * Writes content to path the way an edit in the editor would: as a
 * WorkspaceEdit replacing the whole document (or creating the file), so
 * Ctrl+Z undoes it, then saves the document.
 */
export async function writeWholeFile(path: string, content: string): Promise<void> {
  const uri = vscode.Uri.file(path);
  const edit = new vscode.WorkspaceEdit();
  let doc = openDocument(path);
  if (!doc) {
    try {
      await vscode.workspace.fs.stat(uri);
      doc = await vscode.workspace.openTextDocument(uri);
    } catch {
      doc = undefined;
    }
  }
  if (doc) {
    edit.replace(uri, wholeDocument(doc), content);
  } else {
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), content);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor refused the edit of ${path}`);
  const target = doc ?? (await vscode.workspace.openTextDocument(uri));
  // save() can answer false while the editor is busy with the document (it
  // is being opened to follow the agent): what counts is the disk.
  if ((await target.save()) || (await holds(uri, content))) return;
  if (target.isDirty && (await target.save())) return;
  if (await holds(uri, content)) return;
  throw new Error(`saving ${path} failed`);
}

/** Whether the file at uri holds content on disk. */
async function holds(uri: vscode.Uri, content: string): Promise<boolean> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) === content;
  } catch {
    return false;
  }
}

/** Deletes path through a WorkspaceEdit (undoable); a missing file is fine. */
export async function deleteFile(path: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.deleteFile(vscode.Uri.file(path), { ignoreIfNotExists: true });
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the editor refused to delete ${path}`);
}
