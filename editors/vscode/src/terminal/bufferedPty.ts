import * as vscode from "vscode";

/** Terminal text uses CRLF; a lone LF would leave the cursor in its column. */
export function toTerminalText(data: string): string {
  return data.replace(/\r?\n/g, "\r\n");
}

/** The line written when the command ends. */
export function exitLine(exitCode: number | null | undefined, signal: string | null | undefined): string {
  if (signal) return `\r\n[dsh: command ended by signal ${signal}]\r\n`;
  return `\r\n[dsh: command exited with status ${exitCode ?? "unknown"}]\r\n`;
}

/** The line written when a cancel stopped the command: how it then ended, when the agent said. */
export function cancelledLine(exitCode: number | null | undefined, signal: string | null | undefined): string {
  if (signal) return `\r\n[dsh: command cancelled, ended by signal ${signal}]\r\n`;
  if (typeof exitCode === "number") return `\r\n[dsh: command cancelled, exited with status ${exitCode}]\r\n`;
  return "\r\n[dsh: command cancelled]\r\n";
}

/**
 * A display-only Pseudoterminal for one command the agent runs. VS Code
 * drops what a Pseudoterminal writes before open(), so output is buffered
 * until then. Typing into it does nothing (the agent owns the command).
 */
export class BufferedPty implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | undefined>();
  private buffer: string[] = [];
  private opened = false;
  private exitStatus: string | undefined;

  /** Fires text for the terminal to show. */
  readonly onDidWrite: vscode.Event<string> = this.writeEmitter.event;
  /** Fires when the terminal should close (only on dispose: the output stays readable). */
  readonly onDidClose: vscode.Event<number | undefined> = this.closeEmitter.event;

  /** Called by VS Code when the terminal is shown; flushes the buffer. */
  open(): void {
    this.opened = true;
    const pending = this.buffer;
    this.buffer = [];
    for (const d of pending) this.writeEmitter.fire(d);
  }

  /** Called by VS Code when the user closes the terminal. */
  close(): void {
    this.opened = false;
  }

  /** Appends command output. */
  write(data: string): void {
    const text = toTerminalText(data);
    if (this.opened) this.writeEmitter.fire(text);
    else this.buffer.push(text);
  }

  /** Shows the command's exit status (once). */
  finish(exitCode: number | null | undefined, signal?: string | null): void {
    if (this.exitStatus !== undefined) return;
    this.exitStatus = signal ? `signal ${signal}` : `status ${exitCode ?? "unknown"}`;
    this.write(exitLine(exitCode, signal).replace(/\r\n/g, "\n"));
  }

  /** Ends a command a cancel stopped: its end line, once, with how it ended when known. */
  stopped(exitCode?: number | null, signal?: string | null): void {
    if (this.exitStatus !== undefined) return;
    this.exitStatus = "cancelled";
    this.write(cancelledLine(exitCode, signal).replace(/\r\n/g, "\n"));
  }

  /** How the command ended, once it has. */
  get status(): string | undefined {
    return this.exitStatus;
  }

  /** What is still waiting for open(). */
  get buffered(): readonly string[] {
    return this.buffer;
  }
}
