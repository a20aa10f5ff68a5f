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
 * input ends when stdout does.
 */
export function webStdio(child: ChildProcessWithoutNullStreams): WebStdio {
  child.stdin.on("error", () => undefined);
  const input = new ReadableStream<Uint8Array>({
    start(ctrl) {
      child.stdout.on("data", (chunk: Buffer) => ctrl.enqueue(new Uint8Array(chunk)));
      child.stdout.on("end", () => {
        try {
          ctrl.close();
        } catch {
          // Already closed or errored.
        }
      });
      child.stdout.on("error", (e: Error) => {
        try {
          ctrl.error(e);
        } catch {
          // Already closed.
        }
      });
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
