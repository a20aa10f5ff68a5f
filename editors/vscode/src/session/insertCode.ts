import * as vscode from "vscode";

/** What the user is told when there is no text editor to insert into. */
export const NO_EDITOR = "dsh: no text editor is open to insert the code into. Open a file, place the cursor, and choose Insert again.";

/** What the user is told when the editor refused the edit (a read-only document). */
export const NOT_INSERTED = "dsh: the code could not be inserted into this editor (is it read-only?).";

/**
 * The editor Insert goes into: the active text editor, or, when none is
 * active (the chat is an editor tab of its own), the one text editor
 * shown beside it; undefined when there is none or the choice is not clear.
 */
function targetEditor(): vscode.TextEditor | undefined {
  const visible = vscode.window.visibleTextEditors;
  return vscode.window.activeTextEditor ?? (visible.length === 1 ? visible[0] : undefined);
}

/**
 * Inserts text at the cursor of the editor Insert goes into (see
 * targetEditor), in place of each of its selections, as Copilot Chat's
 * "Insert at Cursor" does; with no such editor, or when the edit fails,
 * an information message says so. Returns whether it inserted.
 */
export async function insertAtCursor(text: string): Promise<boolean> {
  const editor = targetEditor();
  if (!editor) {
    void vscode.window.showInformationMessage(NO_EDITOR);
    return false;
  }
  const done = await editor.edit((b) => {
    for (const s of editor.selections) b.replace(s, text);
  });
  if (!done) void vscode.window.showInformationMessage(NOT_INSERTED);
  return done;
}
