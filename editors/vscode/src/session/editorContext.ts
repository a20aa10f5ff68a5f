import * as path from "node:path";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { MAX_SELECTION_CHARS } from "./activeEditor";
import type { Mention } from "./mentions";

/** What the active editor offers as context for the next prompt: its file, and the selected lines when there is a selection. */
export interface EditorContext {
  /** Absolute path. */
  readonly path: string;
  /** The selection's first and last line, 0-based, and its text; undefined for no selection. */
  readonly selection?: { readonly startLine: number; readonly endLine: number; readonly text: string } | undefined;
}

/** How the chat view names a context: the path relative to cwd, with the selected lines (1-based). */
export function contextLabel(c: EditorContext, cwd: string): string {
  const rel = path.relative(cwd, c.path);
  const shown = rel.startsWith("..") || path.isAbsolute(rel) ? c.path : rel;
  if (!c.selection) return shown;
  const { startLine, endLine } = c.selection;
  return startLine === endLine ? `${shown}:${startLine + 1}` : `${shown}:${startLine + 1}-${endLine + 1}`;
}

/**
 * The prompt blocks that carry a context to the agent: the selected lines
 * as an embedded resource (the file's URI with a #L range, the text as
 * the editor has it), or the file alone as a resource link.
 */
export function contextBlocks(c: EditorContext): ContentBlock[] {
  const uri = `file://${c.path.split("/").map(encodeURIComponent).join("/")}`;
  if (!c.selection) return [{ type: "resource_link", uri, name: path.basename(c.path) }];
  const { startLine, endLine, text } = c.selection;
  return [{ type: "resource", resource: { uri: `${uri}#L${startLine + 1}-L${endLine + 1}`, mimeType: "text/plain", text } }];
}

/**
 * The context a mention carries, given the file's text now (undefined:
 * it does not exist, and nothing is sent): the file, or the lines it
 * names as a selection (clamped to the file; a range past its end is the
 * file alone).
 */
export function mentionContext(m: Mention, text: string | undefined): EditorContext | undefined {
  if (text === undefined) return undefined;
  if (!m.lines) return { path: m.path };
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  const startLine = m.lines.first - 1;
  if (startLine >= lines.length) return { path: m.path };
  const endLine = Math.min(m.lines.last, lines.length) - 1;
  return { path: m.path, selection: { startLine, endLine, text: lines.slice(startLine, endLine + 1).join("\n").slice(0, MAX_SELECTION_CHARS) } };
}
