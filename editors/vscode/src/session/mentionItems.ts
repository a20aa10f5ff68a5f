import * as path from "node:path";
import * as vscode from "vscode";
import type { MentionItem } from "../chat/messages";
import type { EditorContext } from "./editorContext";
import { findWorkspaceFiles } from "./findFiles";
import { mentionText } from "./mentions";

/** The most workspace symbols an @ mention lists. */
export const MAX_SYMBOLS = 10;

/** path relative to cwd, or undefined when it is not inside it. */
function inside(cwd: string, p: string): string | undefined {
  const rel = path.relative(cwd, p);
  return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? undefined : rel;
}

/** The active selection as a mention (`rel#L3-7`), when the editor has one inside cwd. */
export function selectionItem(cwd: string, context: EditorContext | undefined): MentionItem | undefined {
  const rel = context?.selection ? inside(cwd, context.path) : undefined;
  if (!rel || !context?.selection) return undefined;
  const lines = { first: context.selection.startLine + 1, last: context.selection.endLine + 1 };
  const insert = mentionText(rel, lines);
  return { kind: "selection", insert, label: "Selection", detail: insert.replace("#L", ":") };
}

/**
 * The workspace symbols matching query (VS Code's workspace symbol
 * providers, vscode.executeWorkspaceSymbolProvider) inside cwd, as
 * mentions of their lines, at most MAX_SYMBOLS; none for an empty query
 * (the providers would list everything).
 */
export async function findSymbols(cwd: string, query: string): Promise<MentionItem[]> {
  if (query.trim() === "") return [];
  const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query)) ?? [];
  const out: MentionItem[] = [];
  for (const s of found) {
    const rel = s.location.uri.scheme === "file" ? inside(cwd, s.location.uri.fsPath) : undefined;
    if (!rel) continue;
    const lines = { first: s.location.range.start.line + 1, last: s.location.range.end.line + 1 };
    const insert = mentionText(rel, lines);
    if (out.some((o) => o.insert === insert)) continue;
    out.push({ kind: "symbol", insert, label: s.name, detail: `${symbolKind(s.kind)} · ${insert.replace("#L", ":")}` });
    if (out.length === MAX_SYMBOLS) break;
  }
  return out;
}

/** A symbol kind's name as VS Code's outline shows it ("class", "function", …). */
function symbolKind(kind: vscode.SymbolKind): string {
  const name = (vscode.SymbolKind as unknown as Record<number, string | undefined>)[kind];
  return name ? name.toLowerCase() : "symbol";
}

/**
 * What the `@` list offers for query: the active selection first (when
 * the query is empty or names its file), then the workspace symbols, then
 * the files whose path contains query.
 */
export async function mentionItems(cwd: string, query: string, context: EditorContext | undefined): Promise<MentionItem[]> {
  const selection = selectionItem(cwd, context);
  const offerSelection = selection && (query === "" || selection.insert.toLowerCase().includes(query.toLowerCase()));
  const [symbols, files] = await Promise.all([findSymbols(cwd, query), findWorkspaceFiles(cwd, query)]);
  return [...(offerSelection ? [selection] : []), ...symbols, ...files.map((f): MentionItem => ({ kind: "file", insert: f, label: f }))];
}
