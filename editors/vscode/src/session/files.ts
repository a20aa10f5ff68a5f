import * as path from "node:path";
import type { WriteTextFileRequest } from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import { currentText } from "../fs/documents";
import { deleteFile, writeWholeFile } from "../fs/writeText";
import { undoTarget } from "../review/rebase";
import type { ReviewList } from "../review/reviewList";

/**
 * Answers fs/write_text_file as an undoable WorkspaceEdit, saved; the
 * review list first notes the file's text before the turn touched it
 * (unsaved changes included; null when it did not exist).
 */
export async function writeReviewed(review: ReviewList, req: WriteTextFileRequest): Promise<void> {
  review.noteOriginal(req.path, (await currentText(req.path)) ?? null);
  await writeWholeFile(req.path, req.content);
  review.wrote(req.path, req.content);
}

/** The button that undoes the agent's change of a file the user edited since (the review's Undo, Undo file, Undo all). */
export const UNDO_ANYWAY = "Undo anyway";

/**
 * Undoes the agent's change of a rejected file (undoTarget): its
 * original text with the user's own edits made since carried over, or
 * deletes a file the agent created. written is what the agent's last
 * write left (undefined when not known). When undoing would lose edits of
 * the user's (inside the lines the agent changed, in a file it created,
 * or a file they deleted), it asks first in a modal; resolves whether it
 * undid.
 */
export async function restoreFile(filePath: string, original: string | null, written: string | undefined): Promise<boolean> {
  const current = await currentText(filePath);
  const undo = undoTarget(original, written, current);
  if (undo.losesUserEdits) {
    const answer = await vscode.window.showWarningMessage(undoQuestion(path.basename(filePath), original, current), { modal: true }, UNDO_ANYWAY);
    if (answer !== UNDO_ANYWAY) return false;
  }
  if (undo.text === null) await deleteFile(filePath);
  else await writeWholeFile(filePath, undo.text);
  return true;
}

// The question before an Undo that loses something of the user's: name is
// the file's, current its text now (undefined: they deleted it).
function undoQuestion(name: string, original: string | null, current: string | undefined): string {
  if (current === undefined) return `${name} was deleted after the agent's edit. Undoing writes it back as it was before the agent's change.`;
  const what = original === null ? "deletes the file the agent created, and your own edits to it are lost" : "puts back the lines the agent changed as they were, and your own edits on or right beside them are lost";
  return `${name} changed after the agent's edit. Undoing ${what}.`;
}
