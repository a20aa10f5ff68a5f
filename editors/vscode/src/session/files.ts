import * as path from "node:path";
import type { WriteTextFileRequest } from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import { currentText } from "../fs/documents";
import { deleteFile, writeWholeFile } from "../fs/writeText";
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
 * Restores a rejected file: its original text, or deletes a file the
 * agent created. When the file no longer holds expected (what the
 * agent's last write left: the user edited it since), it asks first in a
 * modal, as their edits would be lost; resolves whether it restored.
 */
export async function restoreFile(filePath: string, original: string | null, expected: string | undefined): Promise<boolean> {
  if (expected !== undefined && (await currentText(filePath)) !== expected) {
    const what = original === null ? "deletes the file the agent created" : "puts back the text from before the agent's change";
    const answer = await vscode.window.showWarningMessage(
      `${path.basename(filePath)} changed after the agent's edit. Undoing ${what}, and your own edits to it are lost.`,
      { modal: true },
      UNDO_ANYWAY,
    );
    if (answer !== UNDO_ANYWAY) return false;
  }
  if (original === null) await deleteFile(filePath);
  else await writeWholeFile(filePath, original);
  return true;
}
