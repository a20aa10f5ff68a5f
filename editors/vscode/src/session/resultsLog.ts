import { appendFile } from "node:fs/promises";

/**
 * Appends one JSON line per notable event (turn ended, permission
 * answered, file accepted or rejected) to the file named by
 * DSH_VSCODE_RESULTS, for end-to-end tests to wait on. Without the
 * variable it does nothing.
 */
export class ResultsLog {
  private readonly file: string | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(file: string | undefined) {
    this.file = file && file.trim() !== "" ? file : undefined;
  }

  /** Whether events are recorded (DSH_VSCODE_RESULTS names a file). */
  get enabled(): boolean {
    return this.file !== undefined;
  }

  /** Records event with its fields. */
  record(event: string, fields: Record<string, unknown> = {}): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const line = JSON.stringify({ event, time: new Date().toISOString(), ...fields }) + "\n";
    this.chain = this.chain.then(() => appendFile(file, line)).catch(() => undefined);
    return this.chain;
  }
}
