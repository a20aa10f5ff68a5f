import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { LogEnd, type ScrollingLog } from "../../src/webview/logEnd";

// A log of a given height in a viewport of 100 px. A move by the code
// (scrollTop =) is clamped, as a browser's, and its scroll event waits
// for deliver() (a browser sends it at the next frame); the user's
// scrollTo sends it at once.
class FakeLog implements ScrollingLog {
  private top = 0;
  scrollHeight = 100;
  readonly clientHeight = 100;
  private onScroll: (() => void) | undefined;
  private pending = false;
  get scrollTop(): number {
    return this.top;
  }
  set scrollTop(v: number) {
    const next = Math.max(0, Math.min(v, this.scrollHeight - this.clientHeight));
    if (next !== this.top) this.pending = true;
    this.top = next;
  }
  addEventListener(type: string, listener: unknown): void {
    if (type === "scroll") this.onScroll = listener as () => void;
  }
  grow(px: number): void {
    this.scrollHeight += px;
  }
  deliver(): void {
    if (this.pending) this.onScroll?.();
    this.pending = false;
  }
  scrollTo(top: number): void {
    this.scrollTop = top;
    this.deliver();
  }
  atEnd(): boolean {
    return this.top === this.scrollHeight - this.clientHeight;
  }
}

// Frames run when the test says so.
class Frames {
  private readonly queued: (() => void)[] = [];
  readonly request = (run: () => void): void => void this.queued.push(run);
  get pending(): number {
    return this.queued.length;
  }
  run(): void {
    for (const f of this.queued.splice(0)) f();
  }
}

describe("the log follows its end", () => {
  const setUp = () => {
    const log = new FakeLog();
    const frames = new Frames();
    return { log, frames, end: new LogEnd(log, frames.request) };
  };

  it("moves once per frame, however many updates came", () => {
    const { log, frames, end } = setUp();
    for (let i = 0; i < 20; i++) {
      log.grow(10);
      end.follow();
    }
    assert.equal(frames.pending, 1, "one frame for the burst");
    assert.equal(log.scrollTop, 0, "nothing moves before the frame");
    frames.run();
    assert.ok(log.atEnd());
  });

  it("leaves a user who scrolled up where they are, and follows again once they are back at the end", () => {
    const { log, frames, end } = setUp();
    log.grow(400);
    end.follow();
    frames.run();
    log.scrollTo(100); // reading further up
    log.grow(50);
    end.follow();
    frames.run();
    assert.equal(log.scrollTop, 100, "not moved while they read");
    log.scrollTo(log.scrollHeight - log.clientHeight - 10); // back near the end
    log.grow(50);
    end.follow();
    frames.run();
    assert.ok(log.atEnd());
  });

  it("always shows the end for the user's own prompt", () => {
    const { log, frames, end } = setUp();
    log.grow(400);
    log.scrollTo(0);
    end.follow();
    end.follow(true);
    frames.run();
    assert.ok(log.atEnd());
    log.grow(30);
    end.follow();
    frames.run();
    assert.ok(log.atEnd(), "and follows after it");
  });

  it("goes on following when its own move's scroll event comes after more streamed in", () => {
    const { log, frames, end } = setUp();
    for (let i = 0; i < 5; i++) {
      log.grow(200);
      end.follow();
      frames.run();
      log.grow(200); // the next chunk lands before the browser sends the move's scroll event
      log.deliver();
      end.follow();
      frames.run();
      assert.ok(log.atEnd(), `at the end after chunk ${i}`);
    }
  });
});
