import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { LogEnd, type ScrollingLog } from "../../src/webview/logEnd";

// A log of a given height in a viewport of 100 px, scrolled by hand with scrollTo.
class FakeLog implements ScrollingLog {
  scrollTop = 0;
  scrollHeight = 100;
  readonly clientHeight = 100;
  private onScroll: (() => void) | undefined;
  addEventListener(type: string, listener: unknown): void {
    if (type === "scroll") this.onScroll = listener as () => void;
  }
  grow(px: number): void {
    this.scrollHeight += px;
  }
  // The user (or the browser after a programmatic move) scrolls: the scroll event fires.
  scrollTo(top: number): void {
    this.scrollTop = top;
    this.onScroll?.();
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
    assert.equal(log.scrollTop, 300);
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
    assert.equal(log.scrollTop, log.scrollHeight);
  });

  it("always shows the end for the user's own prompt", () => {
    const { log, frames, end } = setUp();
    log.grow(400);
    log.scrollTo(0);
    end.follow();
    end.follow(true);
    frames.run();
    assert.equal(log.scrollTop, 500);
    log.grow(30);
    end.follow();
    frames.run();
    assert.equal(log.scrollTop, 530, "and follows after it");
  });
});
