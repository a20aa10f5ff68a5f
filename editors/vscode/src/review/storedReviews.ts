// Keeps each chat's review across window reloads and restarts (see
// docs/decisions.md, "The review survives a reload"): a small index per
// chat in the workspace's state (paths, conversations, pending notes, and
// each text by its SHA-256), the texts themselves in files named by their
// hash. A text is written once, however often the list changes; a change
// of the list rewrites the index alone. No vscode here: the memento and
// the text files are given (extension.ts wires workspaceState and
// blobFiles).
import { createHash } from "node:crypto";
import type { UndoneHunk } from "../chat/editorNote";
import type { KeptChange, PendingNote, ReviewState, ReviewStore } from "./reviewState";

/** The largest text (in UTF-16 code units, about characters) kept for a file: a change with a larger original or write is not kept. */
export const MAX_KEPT_TEXT = 1024 * 1024;
/** The most text (all its files' distinct texts together) a chat's review keeps; the files past it are not kept. */
export const MAX_KEPT_REVIEW = 16 * 1024 * 1024;
/**
 * How long a kept review nobody saves stays (ms): a closed editor tab's
 * (its conversation may never show in a tab again). A chat saves its
 * review when it takes it back as the window opens, and at each change,
 * so a live one never gets this old.
 */
export const KEPT_REVIEW_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The workspaceState key of the kept reviews' index. */
export const REVIEW_INDEX_KEY = "dsh.review";

/** Where the index lives (VS Code's workspaceState). */
export interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** Text files by name (under the extension's workspace storage). */
export interface TextBlobs {
  /** The text named name; undefined when there is none. */
  read(name: string): Promise<string | undefined>;
  /** Writes text as name (whole: a reader never sees half of it). */
  write(name: string, text: string): Promise<void>;
  remove(name: string): Promise<void>;
  /** The names there are. */
  names(): Promise<string[]>;
}

// A kept change, its texts by hash.
interface IndexedChange {
  readonly path: string;
  readonly original: string | null;
  readonly latest: string;
  readonly written?: string | undefined;
  readonly conversation?: string | undefined;
}

// A chat's kept review in the index.
interface IndexedReview {
  readonly changes: readonly IndexedChange[];
  readonly rejected: readonly PendingNote<string>[];
  readonly undone: readonly PendingNote<UndoneHunk>[];
  readonly tooLarge: readonly string[];
  /** When it was last saved or read (ms since the epoch; absent in an index of an earlier version: now). */
  readonly usedAt?: number;
}

type Index = Readonly<Record<string, IndexedReview>>;

/** The name a text is kept under: its SHA-256, in hex. */
export function textName(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The kept reviews of a workspace, one per chat key ("view" for the
 * Agent view, "tab:<session>" for an editor tab). Saves are queued one
 * after another; a chat saving again before its last save ran has only
 * its latest state saved.
 */
export class StoredReviews {
  private readonly memento: Memento;
  private readonly blobs: TextBlobs;
  private chain: Promise<void>;
  private readonly pending = new Map<string, ReviewState | undefined>();
  // The names known to be written (a text is written once).
  private readonly written = new Set<string>();
  // The hash of each text lately kept (hashing a large text once).
  private hashes = new Map<string, string>();

  private readonly now: () => number;

  /** now is the clock kept reviews age by. */
  constructor(memento: Memento, blobs: TextBlobs, now: () => number = Date.now) {
    this.memento = memento;
    this.blobs = blobs;
    this.now = now;
    // Reviews unused for KEPT_REVIEW_TTL_MS, then the texts no kept review names (a save cut short by a closing window), go first.
    this.chain = this.sweep().catch(() => undefined);
  }

  /** The store of the chat whose key is key() at each save (a key that changed moves the review; undefined: nothing is kept). */
  forChat(key: () => string | undefined): ReviewStore {
    let last: string | undefined;
    return {
      save: (state) => {
        const now = key();
        if (last !== undefined && last !== now) this.queue(last, undefined);
        last = now;
        if (now !== undefined) this.queue(now, state);
      },
    };
  }

  /**
   * The review kept under key, its texts read back (undefined: none). A
   * change whose texts are missing or damaged is not given back: it is
   * listed in tooLarge with those that were too large to keep.
   */
  async load(key: string): Promise<ReviewState | undefined> {
    await this.chain;
    const kept = this.index()[key];
    if (!kept) return undefined;
    const changes: KeptChange[] = [];
    const lost: string[] = [...kept.tooLarge];
    for (const c of kept.changes) {
      const change = await this.readChange(c);
      if (change) changes.push(change);
      else lost.push(c.path);
    }
    return { changes, rejected: kept.rejected, undone: kept.undone, ...(lost.length > 0 ? { tooLarge: lost } : {}) };
  }

  /** Resolves once every save asked for so far is done. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await this.chain;
    await this.chain;
  }

  private queue(key: string, state: ReviewState | undefined): void {
    const scheduled = this.pending.size > 0;
    this.pending.set(key, state);
    if (!scheduled) this.chain = this.chain.then(() => this.flush()).catch(() => undefined);
  }

  // Writes the queued states: their new texts first, then the index, then drops the texts nothing names any more.
  private async flush(): Promise<void> {
    const queued = [...this.pending];
    this.pending.clear();
    const reviews = new Map(Object.entries(this.index()));
    const hashes = new Map<string, string>();
    for (const [key, state] of queued) {
      const indexed = state === undefined ? undefined : await this.indexed(state, hashes);
      if (indexed && (indexed.changes.length > 0 || indexed.rejected.length > 0 || indexed.undone.length > 0 || indexed.tooLarge.length > 0)) reviews.set(key, indexed);
      else reviews.delete(key);
    }
    this.hashes = hashes;
    const index: Index = Object.fromEntries(reviews);
    await this.memento.update(REVIEW_INDEX_KEY, index);
    await this.dropUnnamed(index, [...this.written]);
  }

  // state with its texts written (those not written yet) and named by hash; the changes past the caps are listed as too large.
  private async indexed(state: ReviewState, hashes: Map<string, string>): Promise<IndexedReview> {
    const changes: IndexedChange[] = [];
    const tooLarge: string[] = [];
    const counted = new Set<string>();
    let total = 0;
    for (const c of state.changes) {
      const texts = [c.original, c.latest, c.written].filter((t): t is string => t !== null && t !== undefined);
      const fresh = [...new Set(texts)].filter((t) => !counted.has(this.nameOf(t, hashes)));
      const size = fresh.reduce((n, t) => n + t.length, 0);
      if (texts.some((t) => t.length > MAX_KEPT_TEXT) || total + size > MAX_KEPT_REVIEW) {
        tooLarge.push(c.path);
        continue;
      }
      total += size;
      for (const t of fresh) {
        const name = this.nameOf(t, hashes);
        counted.add(name);
        if (!this.written.has(name)) {
          await this.blobs.write(name, t);
          this.written.add(name);
        }
      }
      changes.push({
        path: c.path,
        original: c.original === null ? null : this.nameOf(c.original, hashes),
        latest: this.nameOf(c.latest, hashes),
        ...(c.written !== undefined ? { written: this.nameOf(c.written, hashes) } : {}),
        ...(c.conversation !== undefined ? { conversation: c.conversation } : {}),
      });
    }
    return { changes, rejected: state.rejected, undone: state.undone, tooLarge: [...new Set([...(state.tooLarge ?? []), ...tooLarge])], usedAt: this.now() };
  }

  private nameOf(text: string, hashes: Map<string, string>): string {
    const name = hashes.get(text) ?? this.hashes.get(text) ?? textName(text);
    hashes.set(text, name);
    return name;
  }

  // A kept change with its texts, or undefined when one is missing or not what its name says.
  private async readChange(c: IndexedChange): Promise<KeptChange | undefined> {
    const text = async (name: string): Promise<string | undefined> => {
      const t = await this.blobs.read(name);
      return t !== undefined && textName(t) === name ? t : undefined;
    };
    const original = c.original === null ? null : await text(c.original);
    const latest = await text(c.latest);
    const written = c.written === undefined ? undefined : await text(c.written);
    if (original === undefined || latest === undefined || (c.written !== undefined && written === undefined)) return undefined;
    for (const name of [c.original, c.latest, c.written]) if (name) this.written.add(name);
    return { path: c.path, original, latest, ...(written !== undefined ? { written } : {}), ...(c.conversation !== undefined ? { conversation: c.conversation } : {}) };
  }

  private index(): Index {
    const v = this.memento.get(REVIEW_INDEX_KEY);
    return v !== null && typeof v === "object" ? (v as Index) : {};
  }

  private async sweep(): Promise<void> {
    const index = this.index();
    const oldest = this.now() - KEPT_REVIEW_TTL_MS;
    const live = Object.fromEntries(Object.entries(index).filter(([, r]) => (r.usedAt ?? Infinity) >= oldest));
    if (Object.keys(live).length !== Object.keys(index).length) await this.memento.update(REVIEW_INDEX_KEY, live);
    await this.dropUnnamed(live, await this.blobs.names());
  }

  // Removes those of names no review in index names.
  private async dropUnnamed(index: Index, names: readonly string[]): Promise<void> {
    const named = new Set<string>();
    for (const r of Object.values(index)) for (const c of r.changes) for (const n of [c.original, c.latest, c.written]) if (n) named.add(n);
    for (const name of names) {
      if (named.has(name)) continue;
      this.written.delete(name);
      await this.blobs.remove(name);
    }
  }
}
