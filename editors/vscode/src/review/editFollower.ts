/** How long typing in a file under review pauses before its counts and inline review follow. */
export const EDIT_SETTLE_MS = 250;

/**
 * Follows the user's edits of files under review: each path edited is
 * passed to settled once its edits pause for delayMs (a burst of
 * keystrokes gives one call per file).
 */
export class EditFollower {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly delayMs: number;
  private readonly settled: (path: string) => void;

  constructor(settled: (path: string) => void, delayMs = EDIT_SETTLE_MS) {
    this.settled = settled;
    this.delayMs = delayMs;
  }

  /** Notes an edit of path (its call waits for the edits to pause). */
  edited(path: string): void {
    clearTimeout(this.timers.get(path));
    this.timers.set(
      path,
      setTimeout(() => {
        this.timers.delete(path);
        this.settled(path);
      }, this.delayMs),
    );
  }

  /** Drops the calls still waiting. */
  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
