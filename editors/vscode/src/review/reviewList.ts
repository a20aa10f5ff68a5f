import { rejectionNote, undoneNote, type UndoneHunk } from "../chat/editorNote";
import type { FileDiff } from "../session/toolCalls";

export { rejectionNote };

/** A file the turn changed, as the review list shows it. */
export interface ChangedFile {
  /** Absolute path. */
  readonly path: string;
  /** The text before the turn's first change (null: the turn created it). */
  readonly original: string | null;
  /** The text after the turn's last change. */
  readonly latest: string;
}

/** Puts a file back as it was: original null means delete it. */
export type Restore = (path: string, original: string | null) => Promise<void>;

/**
 * The files changed by the current turn (from its diff cards), with
 * Accept and Reject per file and for all, and per hunk Keep (the hunk
 * joins the original) and Undo (noted for the agent). Reject puts the
 * original text back; the rejected paths and undone hunks are kept until
 * the next prompt takes the note.
 */
export class ReviewList {
  private readonly changes = new Map<string, ChangedFile>();
  private readonly rejected = new Set<string>();
  private readonly undone: UndoneHunk[] = [];
  private readonly originals = new Map<string, string | null>();
  private readonly restore: Restore;

  constructor(restore: Restore) {
    this.restore = restore;
  }

  /** Records a diff card: the first original of a path in the turn is kept. */
  record(diff: FileDiff): void {
    const prev = this.changes.get(diff.path);
    const noted = this.originals.get(diff.path);
    const original = noted !== undefined ? noted : prev ? prev.original : diff.oldText;
    this.changes.set(diff.path, { path: diff.path, original, latest: diff.newText });
  }

  noteOriginal(path: string, text: string | null): void {
    if (this.originals.has(path)) return;
    this.originals.set(path, text);
    const prev = this.changes.get(path);
    if (prev) this.changes.set(path, { ...prev, original: text });
  }

  /**
   * Takes part of path's change in (the user kept a hunk): text is the
   * original with it. Once the original is the file's text again, there
   * is nothing left to review: the file leaves the list.
   */
  keepPart(path: string, text: string, current: string): void {
    const change = this.changes.get(path);
    if (!change) return;
    if (text === current) this.changes.delete(path);
    else this.changes.set(path, { ...change, original: text });
  }

  /**
   * Notes that the user undid part of path's change (told to the agent at
   * the next prompt); the file leaves the list when nothing of the change
   * is left (current is its original).
   */
  undidPart(hunk: UndoneHunk, current: string): void {
    this.undone.push(hunk);
    const change = this.changes.get(hunk.path);
    if (change && (change.original ?? "") === current && change.original !== null) this.changes.delete(hunk.path);
  }

  /** The files awaiting review, in the order first changed. */
  files(): ChangedFile[] {
    return [...this.changes.values()];
  }

  /** The pending change of path, if any. */
  get(path: string): ChangedFile | undefined {
    return this.changes.get(path);
  }

  /** Keeps path's change and drops it from the list. */
  accept(path: string): void {
    this.changes.delete(path);
  }

  /** Restores path's original text, drops it from the list and remembers the rejection. */
  async reject(path: string): Promise<void> {
    const change = this.changes.get(path);
    if (!change) return;
    await this.restore(path, change.original);
    this.changes.delete(path);
    this.rejected.add(path);
  }

  /** Accepts every pending file. */
  acceptAll(): void {
    this.changes.clear();
  }

  /** Rejects every pending file. */
  async rejectAll(): Promise<void> {
    for (const path of [...this.changes.keys()]) await this.reject(path);
  }

  /** Starts a new turn's list; earlier pending changes count as accepted. */
  startTurn(): void {
    this.changes.clear();
    this.originals.clear();
  }

  /**
   * The note that goes before the next prompt when the user rejected
   * files since the last one (then forgotten), else undefined.
   */
  takeRejectionNote(): string | undefined {
    const rejected = [...this.rejected];
    const undone = this.undone.filter((h) => !this.rejected.has(h.path));
    this.rejected.clear();
    this.undone.length = 0;
    const note = (rejected.length ? rejectionNote(rejected) : "") + (undone.length ? undoneNote(undone) : "");
    return note === "" ? undefined : note;
  }
}
