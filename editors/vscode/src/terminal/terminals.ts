import * as vscode from "vscode";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { agentStopped } from "../session/stoppedCalls";
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

/** The object _meta[key] and its terminal_id, when it has a string one. */
function metaField(meta: unknown, key: string): { readonly terminal_id: string; readonly fields: Record<string, unknown> } | undefined {
  const m = record(meta);
  const fields = m ? record(m[key]) : undefined;
  const id = fields?.["terminal_id"];
  return fields && typeof id === "string" ? { terminal_id: id, fields } : undefined;
}

function optional<T>(v: unknown, is: (v: unknown) => v is T): T | null | undefined {
  return v === null ? null : is(v) ? v : undefined;
}
const isString = (v: unknown): v is string => typeof v === "string";
const isNumber = (v: unknown): v is number => typeof v === "number";

/** The terminal a tool_call announces in _meta.terminal_info, if any. */
export function terminalInfo(meta: unknown): TerminalInfoMeta | undefined {
  const f = metaField(meta, "terminal_info");
  if (!f) return undefined;
  const cwd = f.fields["cwd"];
  return isString(cwd) ? { terminal_id: f.terminal_id, cwd } : { terminal_id: f.terminal_id };
}

/** Output a tool_call_update carries in _meta.terminal_output, if any. */
export function terminalOutput(meta: unknown): TerminalOutputMeta | undefined {
  const f = metaField(meta, "terminal_output");
  const data = f?.fields["data"];
  return f && isString(data) ? { terminal_id: f.terminal_id, data } : undefined;
}

/** The exit a tool_call_update carries in _meta.terminal_exit, if any (a field of the wrong type counts as absent). */
export function terminalExit(meta: unknown): TerminalExitMeta | undefined {
  const f = metaField(meta, "terminal_exit");
  if (!f) return undefined;
  return { terminal_id: f.terminal_id, exit_code: optional(f.fields["exit_code"], isNumber), signal: optional(f.fields["signal"], isString) };
}

/**
 * The VS Code terminals of the commands the agent runs: one per tool call
 * announcing _meta.terminal_info, named after the command, fed by
 * _meta.terminal_output and ended by _meta.terminal_exit (a "cancelled"
 * line, with that exit, for a call a cancel stopped; the same line when
 * the call ends without one).
 */
export class CommandTerminals {
  private readonly ptys = new Map<string, BufferedPty>();
  // The terminal of each tool call that announced one.
  private readonly byCall = new Map<string, string>();
  private readonly terminals: vscode.Terminal[] = [];

  /** Applies one session update; returns the pty it touched, if any. */
  apply(u: SessionUpdate, name: () => string): BufferedPty | undefined {
    if (u.sessionUpdate === "tool_call") {
      const info = terminalInfo(u._meta);
      if (!info || this.ptys.has(info.terminal_id)) return undefined;
      const pty = new BufferedPty();
      this.ptys.set(info.terminal_id, pty);
      this.byCall.set(u.toolCallId, info.terminal_id);
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
      // A command the turn's cancel stopped says so, with how it ended, in one line.
      if (agentStopped(u._meta)) touched?.stopped(exit.exit_code, exit.signal);
      else touched?.finish(exit.exit_code, exit.signal);
    }
    // A call that ended without its command's exit (cancelled, killed) still gets an end line.
    if (u.status === "completed" || u.status === "failed") {
      const id = this.byCall.get(u.toolCallId);
      const pty = id === undefined ? undefined : this.ptys.get(id);
      pty?.stopped();
      touched ??= pty;
    }
    return touched;
  }

  /** Ends every command still running without an exit (the turn is over: it was cancelled or failed). */
  stopAll(): void {
    for (const pty of this.ptys.values()) pty.stopped();
  }

  /**
   * Forgets which terminal shows which command, leaving the terminals
   * open: another session is shown, whose terminal ids may repeat this
   * one's (a replayed session's do), so each gets a terminal of its own.
   */
  release(): void {
    this.stopAll();
    this.ptys.clear();
    this.byCall.clear();
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
    this.byCall.clear();
  }
}
