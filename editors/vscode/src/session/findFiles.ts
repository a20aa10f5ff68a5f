import * as path from "node:path";
import * as vscode from "vscode";

/** The most files an @ mention lists. */
export const MAX_MENTIONS = 20;

/** A glob pattern's special characters escaped, so that query matches as typed. */
function globLiteral(query: string): string {
  return query.replace(/[*?[\]{}!]/g, (c) => `[${c}]`);
}

/**
 * The workspace files whose path contains query (case as VS Code's search
 * treats it), relative to cwd, shortest first, at most MAX_MENTIONS;
 * node_modules and .git are left out.
 */
export async function findWorkspaceFiles(cwd: string, query: string): Promise<string[]> {
  const uris = await vscode.workspace.findFiles(`**/*${globLiteral(query)}*`, "**/{node_modules,.git}/**", MAX_MENTIONS * 5);
  return uris
    .map((u) => path.relative(cwd, u.fsPath))
    .filter((r) => !r.startsWith("..") && !path.isAbsolute(r))
    .sort((a, b) => a.length - b.length || a.localeCompare(b))
    .slice(0, MAX_MENTIONS);
}
