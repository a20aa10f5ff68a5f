import * as vscode from "vscode";
import { COMMANDS } from "../commands";
import { lineCount, lineCounts, type TextHunk } from "./hunks";

/** The hunks of a file under review and its text now; undefined for a file not under review. */
export type HunksOf = (path: string) => Promise<{ readonly hunks: readonly TextHunk[]; readonly current: string } | undefined>;

/** A line range of a hunk in the file now: its added lines, or (a pure deletion) the line where lines were removed. */
export function hunkLines(h: TextHunk, lineTotal: number): { readonly first: number; readonly last: number; readonly added: boolean } {
  const last = Math.max(0, lineTotal - 1);
  const n = lineCount(h.newText);
  if (n === 0) return { first: Math.min(h.newLine, last), last: Math.min(h.newLine, last), added: false };
  return { first: Math.min(h.newLine, last), last: Math.min(h.newLine + n - 1, last), added: true };
}

/**
 * The agent's changes shown in the edited files themselves: added lines
 * highlighted (with what they replaced as the hover), a mark where lines
 * were removed, and CodeLens actions per hunk (Keep, Undo) and per file
 * (Keep file, Undo file).
 */
export class InlineReview implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the lenses are to be asked for again. */
  readonly onDidChangeCodeLenses: vscode.Event<void> = this.changed.event;
  private readonly added: vscode.TextEditorDecorationType;
  private readonly removed: vscode.TextEditorDecorationType;
  private readonly hunksOf: HunksOf;

  constructor(hunksOf: HunksOf) {
    this.hunksOf = hunksOf;
    this.added = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    });
    this.removed = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      borderColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
      borderStyle: "solid",
      borderWidth: "2px 0 0 0",
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.deletedForeground"),
    });
  }

  /** Redraws every visible editor and asks for the lenses again (the review changed). */
  async refresh(): Promise<void> {
    this.changed.fire();
    for (const editor of vscode.window.visibleTextEditors) await this.decorate(editor);
  }

  /** Highlights the hunks of the file in editor (nothing for a file not under review). */
  async decorate(editor: vscode.TextEditor): Promise<void> {
    const doc = editor.document;
    const review = doc.uri.scheme === "file" ? await this.hunksOf(doc.uri.fsPath) : undefined;
    const added: vscode.DecorationOptions[] = [];
    const removed: vscode.DecorationOptions[] = [];
    for (const h of review?.hunks ?? []) {
      const lines = hunkLines(h, doc.lineCount);
      const range = new vscode.Range(new vscode.Position(lines.first, 0), new vscode.Position(lines.last, 0));
      const was = h.oldText === "" ? "dsh added these lines." : `dsh replaced:\n\n\`\`\`\n${h.oldText}\`\`\``;
      (lines.added ? added : removed).push({ range, hoverMessage: new vscode.MarkdownString(lines.added ? was : `dsh removed:\n\n\`\`\`\n${h.oldText}\`\`\``) });
    }
    editor.setDecorations(this.added, added);
    editor.setDecorations(this.removed, removed);
  }

  /** Keep / Undo above each hunk, and for the whole file on its first line. */
  async provideCodeLenses(doc: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (doc.uri.scheme !== "file") return [];
    const path = doc.uri.fsPath;
    const review = await this.hunksOf(path);
    if (!review || review.hunks.length === 0) return [];
    const top = new vscode.Range(new vscode.Position(0, 0), new vscode.Position(0, 0));
    const { added, removed } = lineCounts(review.hunks);
    const lenses = [
      new vscode.CodeLens(top, { title: `dsh: Keep file (+${added} −${removed})`, command: COMMANDS.acceptFile, arguments: [path] }),
      new vscode.CodeLens(top, { title: "Undo file", command: COMMANDS.rejectFile, arguments: [path] }),
    ];
    review.hunks.forEach((h, i) => {
      const { first } = hunkLines(h, doc.lineCount);
      const at = new vscode.Range(new vscode.Position(first, 0), new vscode.Position(first, 0));
      lenses.push(
        new vscode.CodeLens(at, { title: `Keep (+${lineCount(h.newText)} −${lineCount(h.oldText)})`, command: COMMANDS.keepHunk, arguments: [path, i] }),
        new vscode.CodeLens(at, { title: "Undo", command: COMMANDS.undoHunk, arguments: [path, i] }),
      );
    });
    return lenses;
  }

  /** Removes the decorations' types. */
  dispose(): void {
    this.added.dispose();
    this.removed.dispose();
    this.changed.dispose();
  }
}
