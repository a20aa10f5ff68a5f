/** What LogEnd reads and moves of the scrolling log. */
export type ScrollingLog = Pick<HTMLElement, "scrollTop" | "scrollHeight" | "clientHeight" | "addEventListener">;

/** How near its end (px) a log still counts as read to the end. */
const AT_END_PX = 32;

/**
 * Keeps a scrolling box (the conversation log, a command's output in its
 * card) at its end while the user is there, as VS Code's chat and
 * terminal do: what streams in while they read further up does not move
 * them, and scrolling back to the end follows again. The move
 * is made once per animation frame, not per update: reading scrollHeight
 * right after a change lays the whole view out at once, and a burst of
 * updates then cost one forced layout each on the main thread the
 * webview shares with the workbench (see docs/benchmarks.md).
 */
export class LogEnd {
  private readonly log: ScrollingLog;
  private readonly nextFrame: (run: () => void) => void;
  private following = true;
  private jump = false;
  private scheduled = false;
  // Where the last move put the log, until its scroll event comes (a frame
  // later, when more may have streamed in: that event is not the user's).
  private movedTo: number | undefined;

  /** nextFrame runs a callback before the next paint (requestAnimationFrame in the webview). */
  constructor(log: ScrollingLog, nextFrame: (run: () => void) => void) {
    this.log = log;
    this.nextFrame = nextFrame;
    log.addEventListener("scroll", () => {
      const mine = log.scrollTop === this.movedTo;
      this.movedTo = undefined;
      if (!mine) this.following = log.scrollHeight - log.scrollTop - log.clientHeight <= AT_END_PX;
    });
  }

  /**
   * Shows the end of the log at the next frame if the user is reading
   * there; always when jump is set (they sent a prompt: their message
   * and its answer are what they look at next).
   */
  follow(jump = false): void {
    this.jump ||= jump;
    if (this.scheduled) return;
    this.scheduled = true;
    this.nextFrame(() => {
      this.scheduled = false;
      if (this.jump) this.following = true;
      this.jump = false;
      if (!this.following) return;
      this.log.scrollTop = this.log.scrollHeight;
      this.movedTo = this.log.scrollTop;
    });
  }
}
