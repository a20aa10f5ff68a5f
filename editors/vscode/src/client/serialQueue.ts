/**
 * Runs tasks one after another in the order they were queued. The SDK
 * starts notification handlers without waiting for the previous one, so
 * each session's updates go through one of these to reach the UI in order.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Queues task; the returned promise settles with it. A failing task does not stop the queue. */
  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Resolves once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.tail;
  }
}
