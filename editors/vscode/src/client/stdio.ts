import type { ChildProcessWithoutNullStreams } from "node:child_process";

/** A child's stdio as the web streams ndJsonStream takes. */
export interface WebStdio {
  /** What the client writes: the child's stdin. */
  readonly output: WritableStream<Uint8Array>;
  /** What the client reads: the child's stdout. */
  readonly input: ReadableStream<Uint8Array>;
}

/**
 * Wraps a child's stdin and stdout as web streams. A write to a child that
 * has gone fails the write (it does not throw in the event loop); the
 * input ends when stdout does, and output that comes after the reader
 * gave up is dropped.
 */
export function webStdio(child: ChildProcessWithoutNullStreams): WebStdio {
  child.stdin.on("error", () => undefined);
  // Once the stream is closed, errored or cancelled (the client went away
  // first), later output is dropped: enqueueing then would throw in the
  // event loop.
  let open = true;
  const input = new ReadableStream<Uint8Array>({
    start(ctrl) {
      child.stdout.on("data", (chunk: Buffer) => {
        if (!open) return;
        try {
          ctrl.enqueue(new Uint8Array(chunk));
        } catch {
          open = false;
        }
      });
      child.stdout.on("end", () => {
        if (!open) return;
        open = false;
        ctrl.close();
      });
      child.stdout.on("error", (e: Error) => {
        if (!open) return;
        open = false;
        ctrl.error(e);
      });
    },
    cancel() {
      open = false;
    },
  });
  const output = new WritableStream<Uint8Array>({
    write(chunk) {
      return new Promise<void>((resolve, reject) => {
        if (child.stdin.destroyed || !child.stdin.writable) {
          reject(new Error("dsh-acp's stdin is closed"));
          return;
        }
        child.stdin.write(chunk, (err) => (err ? reject(err) : resolve()));
      });
    },
    close() {
      child.stdin.end();
    },
  });
  return { output, input };
}
