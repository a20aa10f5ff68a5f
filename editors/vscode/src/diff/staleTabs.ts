// The diff and plan tabs a window reload leaves behind: VS Code reopens
// them, but the texts dsh showed in them lived only in the extension's
// memory, so they would show an empty "before" (the whole file as added)
// or an empty plan. They are closed when the extension starts.
import * as vscode from "vscode";

/** Whether uri is one of dsh's in-memory documents (a diff's "before", a plan) whose text is gone. */
type Stale = (uri: vscode.Uri) => boolean;

/** The URIs a tab's input shows, read defensively (text, diff and multi-file diff inputs). */
function shownUris(input: unknown): vscode.Uri[] {
  if (input === null || typeof input !== "object") return [];
  const out: vscode.Uri[] = [];
  for (const key of ["uri", "original", "modified"] as const) {
    const v: unknown = (input as Record<string, unknown>)[key];
    if (v instanceof vscode.Uri) out.push(v);
  }
  const diffs: unknown = (input as Record<string, unknown>)["textDiffs"];
  if (Array.isArray(diffs)) for (const d of diffs as unknown[]) out.push(...shownUris(d));
  return out;
}

/** Whether a tab with this input shows one of dsh's in-memory documents, which a reload emptied. */
export function isStaleTab(input: unknown, stale: Stale): boolean {
  return shownUris(input).some(stale);
}

/**
 * Closes every tab that shows one of dsh's in-memory documents whose text
 * is gone (see isStaleTab): at activation, and whenever a tab VS Code
 * restored later asks for one.
 */
export async function closeStaleTabs(stale: Stale): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.filter((t) => isStaleTab(t.input, stale)));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}
