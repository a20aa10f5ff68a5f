import type { WriteTextFileRequest } from "@agentclientprotocol/sdk";
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
  return writeWholeFile(req.path, req.content);
}

/** Restores a rejected file: its original text, or deletes a file the turn created. */
export async function restoreFile(filePath: string, original: string | null): Promise<void> {
  if (original === null) await deleteFile(filePath);
  else await writeWholeFile(filePath, original);
}
