import * as vscode from "vscode";
import { previewSafe } from "./planReview";

/** The URI scheme of the read-only documents holding the plans the agent asks to implement. */
export const PLAN_SCHEME = "dsh-plan";

/**
 * Serves the agent's plans as read-only Markdown documents,
 * `dsh-plan:/Plan.md?<n>`, and opens each in VS Code's Markdown preview
 * (the source when the preview is not there). Texts are kept until
 * dispose.
 */
export class PlanDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;

  /** Stores markdown and returns the URI that shows it. */
  register(markdown: string): vscode.Uri {
    const key = String(++this.next);
    this.texts.set(key, markdown);
    return vscode.Uri.from({ scheme: PLAN_SCHEME, path: "/Plan.md", query: key });
  }

  /** Whether uri is one of the plans this holds (a reload forgets them). */
  knows(uri: vscode.Uri): boolean {
    return uri.scheme === PLAN_SCHEME && this.texts.has(uri.query);
  }

  /** The stored plan of uri (empty for an unknown one). */
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? "";
  }

  /**
   * Opens markdown as a plan: its preview in the active editor group,
   * focus kept on the question; the document holds it made previewSafe
   * (no image, no loading element).
   */
  async show(markdown: string): Promise<void> {
    const uri = this.register(previewSafe(markdown));
    const doc = await vscode.workspace.openTextDocument(uri);
    try {
      await vscode.commands.executeCommand("markdown.showPreview", uri);
    } catch {
      // The Markdown extension is off: the source is readable too.
      await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true });
    }
  }

  /** Forgets every plan. */
  dispose(): void {
    this.texts.clear();
  }
}
