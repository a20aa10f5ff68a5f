import * as vscode from "vscode";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { BufferedPty } from "./bufferedPty";

interface TerminalInfoMeta {
  readonly terminal_id: string;
  readonly cwd?: string;
}
interface TerminalOutputMeta {
  readonly terminal_id: string;
  readonly data: string;
}
interface TerminalExitMeta {
  readonly terminal_id: string;
  readonly exit_code?: number | null;
  readonly signal?: string | null;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
}

function metaField<T>(meta: unknown, key: string): T | undefined {
  const m = record(meta);
  const v = m ? record(m[key]) : undefined;
  return v && typeof v["terminal_id"] === "string" ? (v as T) : undefined;
}

/** The terminal a tool_call announces in _meta.terminal_info, if any. */
export function terminalInfo(meta: unknown): TerminalInfoMeta | undefined {
  return metaField<TerminalInfoMeta>(meta, "terminal_info");
}

/** Output a tool_call_update carries in _meta.terminal_output, if any. */
export function terminalOutput(meta: unknown): TerminalOutputMeta | undefined {
  const o = metaField<TerminalOutputMeta>(meta, "terminal_output");
  return o && typeof o.data === "string" ? o : undefined;
}

/** The exit a tool_call_update carries in _meta.terminal_exit, if any. */
export function terminalExit(meta: unknown): TerminalExitMeta | undefined {
  return metaField<TerminalExitMeta>(meta, "terminal_exit");
}

/**
 * The VS Code terminals of the commands the agent runs: one per tool call
 * announcing _meta.terminal_info, named after the command, fed by
 * _meta.terminal_output and ended by _meta.terminal_exit.
 */
export class CommandTerminals {
  private readonly ptys = new Map<string, BufferedPty>();
  private readonly terminals: vscode.Terminal[] = [];

  /** Applies one session update; returns the pty it touched, if any. */
  apply(u: SessionUpdate, name: () => string): BufferedPty | undefined {
    if (u.sessionUpdate === "tool_call") {
      const info = terminalInfo(u._meta);
      if (!info || this.ptys.has(info.terminal_id)) return undefined;
      const pty = new BufferedPty();
      this.ptys.set(info.terminal_id, pty);
      const opts: vscode.ExtensionTerminalOptions = { name: `dsh: ${name()}`, pty };
      const terminal = vscode.window.createTerminal(opts);
      this.terminals.push(terminal);
      terminal.show(true);
      return pty;
    }
    if (u.sessionUpdate !== "tool_call_update") return undefined;
    const out = terminalOutput(u._meta);
    const exit = terminalExit(u._meta);
    let touched: BufferedPty | undefined;
    if (out) {
      touched = this.ptys.get(out.terminal_id);
      touched?.write(out.data);
    }
    if (exit) {
      touched = this.ptys.get(exit.terminal_id);
      touched?.finish(exit.exit_code, exit.signal);
    }
    return touched;
  }

  /** The pty of terminalId, if known. */
  get(terminalId: string): BufferedPty | undefined {
    return this.ptys.get(terminalId);
  }

  /** Closes every terminal. */
  dispose(): void {
    for (const t of this.terminals) t.dispose();
    this.terminals.length = 0;
    this.ptys.clear();
  }
}
