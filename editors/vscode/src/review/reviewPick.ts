import * as path from "node:path";
import * as vscode from "vscode";
import type { ChangedFile } from "./reviewList";

/** What the user chose in the review QuickPick. */
export type ReviewChoice =
  | { readonly kind: "all"; readonly action: "accept" | "reject" }
  | { readonly kind: "file"; readonly action: "accept" | "reject" | "diff"; readonly path: string };

interface Item extends vscode.QuickPickItem {
  readonly choice: { readonly kind: "all"; readonly action: "accept" | "reject" } | { readonly kind: "file"; readonly path: string };
}

const FILE_ACTIONS = [
  { label: "$(diff) Show diff", action: "diff" },
  { label: "$(check) Keep", action: "accept" },
  { label: "$(discard) Undo", action: "reject" },
] as const;

/**
 * The review list as a QuickPick: the files awaiting review and "Keep
 * all" / "Undo all"; a file then offers Show diff / Keep / Undo.
 * Undefined when dismissed (or nothing to review).
 */
export async function pickReview(files: readonly ChangedFile[]): Promise<ReviewChoice | undefined> {
  if (files.length === 0) {
    void vscode.window.showInformationMessage("dsh: no changes to review.");
    return undefined;
  }
  const items: Item[] = [
    ...files.map((f): Item => ({ label: path.basename(f.path), description: f.original === null ? `${f.path} (new)` : f.path, choice: { kind: "file", path: f.path } })),
    { label: "$(check-all) Keep all", choice: { kind: "all", action: "accept" } },
    { label: "$(discard) Undo all", choice: { kind: "all", action: "reject" } },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: "dsh: review changes", ignoreFocusOut: true });
  if (!picked) return undefined;
  if (picked.choice.kind === "all") return picked.choice;
  const filePath = picked.choice.path;
  const what = await vscode.window.showQuickPick([...FILE_ACTIONS], { title: filePath, ignoreFocusOut: true });
  return what ? { kind: "file", action: what.action, path: filePath } : undefined;
}
