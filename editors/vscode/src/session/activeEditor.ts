import type * as vscode from "vscode";
import type { EditorContext } from "./editorContext";

/** The most of a selection sent as context (the rest is left out, and the agent can read the file). */
export const MAX_SELECTION_CHARS = 64 * 1024;

/** What editor offers as context: its file, with the selected lines when something is selected; undefined for no editor or not a file. */
export function editorContextOf(editor: vscode.TextEditor | undefined): EditorContext | undefined {
  if (editor?.document.uri.scheme !== "file") return undefined;
  const path = editor.document.uri.fsPath;
  const sel = editor.selection;
  if (sel.isEmpty) return { path };
  const text = editor.document.getText(sel).slice(0, MAX_SELECTION_CHARS);
  return { path, selection: { startLine: sel.start.line, endLine: sel.end.line, text } };
}
