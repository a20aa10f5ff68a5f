import { rejectionNote, undoneNote, type UndoneHunk } from "../chat/editorNote";
import type { FileDiff } from "../session/toolCalls";
import { rebaseOriginal } from "./rebase";
import type { KeptChange, PendingNote, ReviewState, ReviewStore } from "./reviewState";

export { rejectionNote };

/** A file the agent changed and the user has not kept or undone yet, as the review list shows it. */
export interface ChangedFile {
  /** Absolute path. */
  readonly path: string;
  /** The text before the agent's first change still under review (null: the agent created it). */
  readonly original: string | null;
  /** The text after the agent's last change. */
  readonly latest: string;
  /** The conversation (session id) that last changed it, if known: what the user undoes of it is told there. */
  readonly conversation?: string | undefined;
}

/**
 * Undoes the agent's change of a file (original null: deletes the file it
 * created); written, when known, is the text the agent's last write left
 * in it, so that the user's own edits since stay, and none is lost
 * without asking. Resolves whether it was undone.
 */
export type Restore = (path: string, original: string | null, written: string | undefined) => Promise<boolean>;

/**
 * The files the agent changed that the user has not reviewed yet (from
 * the diff cards), with Accept and Reject per file and for all, and per
 * hunk Keep (the hunk joins the original) and Undo (noted for the
 * agent). A change stays listed across later turns, and across
 * conversations, until it is kept or undone, as in Copilot's review: a
 * later change of the same file keeps the first original, so the hunks
 * are always those of every unreviewed change together (see
 * docs/decisions.md). Reject puts the original text back; the rejected
 * paths and undone hunks are kept until the next prompt of the
 * conversation that made the change takes the note. Given a store, it
 * keeps its state there after each change, once load has been called
 * (so that an early change never overwrites a kept review unread).
 */
export class ReviewList {
  private readonly changes = new Map<string, ChangedFile>();
  private readonly rejected: PendingNote<string>[] = [];
  private readonly undone: PendingNote<UndoneHunk>[] = [];
  // The texts the files held before the current turn first wrote them (until their card is recorded).
  private readonly originals = new Map<string, string | null>();
  // The paths whose change began in the current turn from a card's own old text (a write noted later gives the whole file).
  private readonly fromCard = new Set<string>();
  // The whole text the agent's last write (or an undone hunk) left in each file under review: another text
  // there now is the user's own edit, which nothing here may undo.
  private readonly written = new Map<string, string>();
  private readonly restore: Restore;
  private readonly store: ReviewStore | undefined;
  private loaded = false;

  constructor(restore: Restore, store?: ReviewStore) {
    this.restore = restore;
    this.store = store;
  }

  /**
   * Takes in a review kept by an earlier window (after reconcile): its
   * files join the list (a path already listed keeps this window's
   * change), its pending notes wait for their conversations' next
   * prompts. From now on each change is kept in the store.
   */
  load(state: ReviewState): void {
    for (const c of state.changes) {
      if (this.changes.has(c.path)) continue;
      this.changes.set(c.path, { path: c.path, original: c.original, latest: c.latest, ...(c.conversation !== undefined ? { conversation: c.conversation } : {}) });
      if (c.written !== undefined) this.written.set(c.path, c.written);
    }
    this.rejected.push(...state.rejected);
    this.undone.push(...state.undone);
    this.loaded = true;
    this.save();
  }

  /** The review as it is kept: the files under review with what the agent last wrote in each, and the pending notes. */
  state(): ReviewState {
    const changes: KeptChange[] = this.files().map((f) => ({ ...f, written: this.written.get(f.path) }));
    return { changes, rejected: [...this.rejected], undone: [...this.undone] };
  }

  // Keeps the state in the store (once loaded).
  private save(): void {
    if (this.loaded) this.store?.save(this.state());
  }

  /**
   * Records a diff card of conversation: a path already under review
   * keeps its original (the file before the agent's first unreviewed
   * change), else the text noted before the turn wrote it, else the
   * card's.
   */
  record(diff: FileDiff, conversation?: string): void {
    const prev = this.changes.get(diff.path);
    const noted = this.originals.get(diff.path);
    const original = prev ? prev.original : noted !== undefined ? noted : diff.oldText;
    if (!prev && noted === undefined) this.fromCard.add(diff.path);
    this.originals.delete(diff.path);
    const from = conversation ?? prev?.conversation;
    this.changes.set(diff.path, { path: diff.path, original, latest: diff.newText, ...(from !== undefined ? { conversation: from } : {}) });
    this.save();
  }

  /**
   * Notes the text path holds before the agent writes it (null: it does
   * not exist): the original of its change, unless the path was already
   * under review before the turn (its original stays) or was noted
   * earlier in the turn. A change the turn began from a card's old text
   * (a fragment, perhaps) takes it instead. A file under review that the
   * user edited since the agent last wrote it takes text as its original
   * too: their edits are never part of what Undo or Reject takes back
   * (the agent's earlier change of it counts as kept).
   */
  noteOriginal(path: string, text: string | null): void {
    const prev = this.changes.get(path);
    const written = this.written.get(path);
    if (prev && (this.fromCard.delete(path) || (written !== undefined && text !== written))) {
      this.changes.set(path, { ...prev, original: text });
      this.save();
      return;
    }
    if (prev || this.originals.has(path)) return;
    this.originals.set(path, text);
  }

  /** Notes the whole text the agent's write left in path (after noteOriginal). */
  wrote(path: string, text: string): void {
    this.written.set(path, text);
    if (this.changes.has(path)) this.save();
  }

  /**
   * Takes part of path's change in (the user kept a hunk): text is the
   * original with it. Once the original is the file's text again, there
   * is nothing left to review: the file leaves the list.
   */
  keepPart(path: string, text: string, current: string): void {
    const change = this.changes.get(path);
    if (!change) return;
    if (text === current) this.drop(path);
    else {
      // text holds the user's edits so far (it was made from base): they are no longer to carry over.
      this.changes.set(path, { ...change, original: text });
      this.written.set(path, current);
    }
    this.save();
  }

  /**
   * What path's change is reviewed against, current being the file's
   * text now: its original, with the user's own edits made since the
   * agent's last write carried over (rebaseOriginal), so that only the
   * agent's changes show as hunks; null for a file the agent created,
   * undefined for a path not under review.
   */
  baseOf(path: string, current: string | undefined): string | null | undefined {
    const change = this.changes.get(path);
    if (!change) return undefined;
    const written = this.written.get(path);
    if (change.original === null || written === undefined || current === undefined) return change.original;
    return rebaseOriginal(change.original, written, current);
  }

  /**
   * Notes that the user undid part of path's change (told to the agent at
   * the next prompt of the conversation that made it); the file leaves the
   * list when nothing of the change is left (current is its original).
   * base, when given, is what the hunk was undone towards (baseOf: the
   * original with the user's edits so far), which becomes the original.
   */
  undidPart(hunk: UndoneHunk, current: string, base?: string | null): void {
    const prev = this.changes.get(hunk.path);
    const change = prev && base !== undefined ? { ...prev, original: base } : prev;
    if (change) this.changes.set(hunk.path, change);
    this.undone.push({ what: hunk, conversation: change?.conversation });
    if (change) this.written.set(hunk.path, current);
    if (change && (change.original ?? "") === current && change.original !== null) this.drop(hunk.path);
    this.save();
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
    if (!this.changes.has(path)) return;
    this.drop(path);
    this.save();
  }

  /**
   * Undoes path's change (Restore: the user's own edits since the
   * agent's last write stay), drops it from the list and remembers the
   * rejection; when undoing would lose edits of the user's, only if
   * Restore's question is answered yes (else it stays listed, untouched).
   * Resolves whether it was rejected.
   */
  async reject(path: string): Promise<boolean> {
    const change = this.changes.get(path);
    if (!change) return false;
    if (!(await this.restore(path, change.original, this.written.get(path)))) return false;
    this.drop(path);
    if (!this.rejected.some((r) => r.what === path && r.conversation === change.conversation)) this.rejected.push({ what: path, conversation: change.conversation });
    this.save();
    return true;
  }

  /** Accepts every pending file. */
  acceptAll(): void {
    this.changes.clear();
    this.written.clear();
    this.save();
  }

  // Takes path out of review.
  private drop(path: string): void {
    this.changes.delete(path);
    this.written.delete(path);
  }

  /** Rejects every pending file; resolves the paths rejected (a file whose question was answered no is not). */
  async rejectAll(): Promise<string[]> {
    const rejected: string[] = [];
    for (const path of [...this.changes.keys()]) if (await this.reject(path)) rejected.push(path);
    return rejected;
  }

  /**
   * Starts a new turn: the changes still under review stay listed (their
   * originals too); only the texts noted before this turn's writes start
   * afresh.
   */
  startTurn(): void {
    this.originals.clear();
    this.fromCard.clear();
  }

  /**
   * The note that goes before the next prompt of conversation when the
   * user rejected files, or undid hunks, of its changes since its last
   * one (then forgotten; those of a change with no conversation go to any),
   * else undefined.
   */
  takeRejectionNote(conversation?: string): string | undefined {
    const mine = <T>(p: PendingNote<T>): boolean => p.conversation === undefined || p.conversation === conversation;
    const rejected = this.rejected.filter(mine).map((r) => r.what);
    const undone = this.undone.filter((h) => mine(h) && !rejected.includes(h.what.path)).map((h) => h.what);
    const before = this.rejected.length + this.undone.length;
    remove(this.rejected, mine);
    remove(this.undone, mine);
    if (this.rejected.length + this.undone.length !== before) this.save();
    const note = (rejected.length ? rejectionNote([...new Set(rejected)]) : "") + (undone.length ? undoneNote(undone) : "");
    return note === "" ? undefined : note;
  }
}

// Drops the items of list that match, in place.
function remove<T>(list: T[], match: (t: T) => boolean): void {
  for (let i = list.length - 1; i >= 0; i--) if (match(list[i] as T)) list.splice(i, 1);
}
