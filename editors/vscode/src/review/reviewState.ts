// What of a chat's review is kept across a window reload (see
// docs/decisions.md, "The review survives a reload"), and how a kept review
// is checked against the files on disk when the window opens again. Pure:
// no vscode; the texts' storage is StoredReviews'.
import type { UndoneHunk } from "../chat/editorNote";

/** A file under review as kept: its change, and the whole text the agent's last write (or an undone hunk) left in it. */
export interface KeptChange {
  readonly path: string;
  /** The text before the agent's change (null: the agent created it). */
  readonly original: string | null;
  readonly latest: string;
  /** What the agent's last write left in the file (absent: not known, as for a change recorded from its card only). */
  readonly written?: string | undefined;
  readonly conversation?: string | undefined;
}

/** A rejected path or an undone hunk, waiting for the next prompt of its conversation. */
export interface PendingNote<T> {
  readonly what: T;
  readonly conversation: string | undefined;
}

/** A review as kept between windows. */
export interface ReviewState {
  readonly changes: readonly KeptChange[];
  readonly rejected: readonly PendingNote<string>[];
  readonly undone: readonly PendingNote<UndoneHunk>[];
  /** Files under review that were too large to keep (their review did not survive; said when the window opens again). */
  readonly tooLarge?: readonly string[];
}

/** Where a ReviewList keeps its state: save is called after each change of the list (the store makes it cheap). */
export interface ReviewStore {
  save(state: ReviewState): void;
}

/** A review with nothing in it. */
export const EMPTY_REVIEW: ReviewState = { changes: [], rejected: [], undone: [] };

/** What checking a kept review against the disk gives: the review to go on with, and the files it left out, by reason. */
export interface Reconciled {
  readonly state: ReviewState;
  /** Files the user deleted while the window was closed: they leave the list (nothing is left in them to keep or undo). */
  readonly deleted: readonly string[];
  /** Files the user put back as they were: nothing is left to review. */
  readonly unchanged: readonly string[];
}

/**
 * Checks a kept review against the files now (read: a file's text,
 * undefined when it is gone). A file that holds the agent's last write is
 * reviewed as before; one the user edited while the window was closed
 * stays listed with the agent's write kept as `written`, so its hunks
 * show against the original and a Reject asks before it would lose their
 * edits (restoreFile's modal); one the user deleted, or put back as it
 * was, leaves the list. The pending notes all stay: they reach the agent
 * at the next prompt of their conversation.
 */
export async function reconcile(kept: ReviewState, read: (path: string) => Promise<string | undefined>): Promise<Reconciled> {
  const changes: KeptChange[] = [];
  const deleted: string[] = [];
  const unchanged: string[] = [];
  for (const c of kept.changes) {
    const now = await read(c.path);
    if (now === undefined) (c.original === null ? unchanged : deleted).push(c.path);
    else if (now === c.original) unchanged.push(c.path);
    else changes.push(c);
  }
  return { state: { ...kept, changes }, deleted, unchanged };
}
