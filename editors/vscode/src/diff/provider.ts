import * as path from "node:path";
import * as vscode from "vscode";
import { currentText } from "../fs/documents";
import { wholeFileSides, type Hunk, type Side } from "./wholeFile";

/** The URI scheme of the virtual documents holding a file's text before a change. */
export const DIFF_SCHEME = "dsh-diff";

/**
 * Serves the "before" side of diffs as read-only virtual documents:
 * `dsh-diff:/abs/path?<key>`, so the editor picks the language from the
 * path. Texts are kept until dispose. A document it does not know (one a
 * window reload reopened: the texts lived in memory) is served empty,
 * and onUnknown is told, so that its tab can be closed.
 */
export class DiffContentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly onUnknown: ((uri: vscode.Uri) => void) | undefined;
  private next = 0;

  constructor(onUnknown?: (uri: vscode.Uri) => void) {
    this.onUnknown = onUnknown;
  }

  /** Whether uri is one of the documents this provider holds. */
  knows(uri: vscode.Uri): boolean {
    return uri.scheme === DIFF_SCHEME && this.texts.has(uri.query);
  }

  /** Stores text and returns the URI that shows it for filePath. */
  register(filePath: string, text: string): vscode.Uri {
    const key = String(++this.next);
    this.texts.set(key, text);
    return diffUri(filePath, key);
  }

  /** The stored text of uri (empty for an unknown one, and onUnknown is told). */
  provideTextDocumentContent(uri: vscode.Uri): string {
    const text = this.texts.get(uri.query);
    if (text === undefined) this.onUnknown?.(uri);
    return text ?? "";
  }

  /** Forgets every stored text. */
  dispose(): void {
    this.texts.clear();
  }
}

/** The URI of the virtual "before" document for filePath under key. */
export function diffUri(filePath: string, key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: DIFF_SCHEME, path: vscode.Uri.file(filePath).path, query: key });
}

/**
 * Opens VS Code's diff editor: oldText (a virtual document) on the left,
 * the file itself on the right. A file the agent created (oldText null)
 * has nothing to compare: it opens as it is, as VS Code's source control
 * opens an added file (its review shows every line new); a diff against
 * an empty document would show an empty line 1 removed.
 */
export async function openDiff(provider: DiffContentProvider, filePath: string, oldText: string | null | undefined): Promise<void> {
  if (oldText === null) {
    await vscode.commands.executeCommand("vscode.open", vscode.Uri.file(filePath), { preview: true });
    return;
  }
  const left = provider.register(filePath, oldText ?? "");
  const title = `${path.basename(filePath)} (before dsh ↔ now)`;
  await vscode.commands.executeCommand("vscode.diff", left, vscode.Uri.file(filePath), title, { preview: true });
}

/**
 * Opens VS Code's diff editor on the whole file before and after a card's
 * change (built from its hunks and the file's current text, see
 * wholeFileSides). An applied change shows the file itself on the right,
 * so it can be edited there; a proposed one shows both sides as virtual
 * documents.
 */
export async function openChangeDiff(provider: DiffContentProvider, filePath: string, hunks: readonly Hunk[], expected: Side): Promise<void> {
  const sides = wholeFileSides(hunks, await currentText(filePath), expected);
  const left = provider.register(filePath, sides.before);
  const base = path.basename(filePath);
  if (sides.disk === "after") {
    await vscode.commands.executeCommand("vscode.diff", left, vscode.Uri.file(filePath), `${base} (before dsh ↔ now)`, { preview: true });
    return;
  }
  const right = provider.register(filePath, sides.after);
  const title = sides.disk === "before" ? `${base} (now ↔ proposed by dsh)` : `${base} (dsh's change: the hunks only)`;
  await vscode.commands.executeCommand("vscode.diff", left, right, title, { preview: true });
}
