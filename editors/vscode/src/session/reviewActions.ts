import * as path from "node:path";
import * as vscode from "vscode";
import type { ReviewRow, ToWebview } from "../chat/messages";
import { openDiff, type DiffContentProvider } from "../diff/provider";
import { currentText } from "../fs/documents";
import { writeWholeFile } from "../fs/writeText";
import { keepHunk, lineCount, lineCounts, textHunks, undoHunk, type TextHunk } from "../review/hunks";
import type { ChangedFile, ReviewList } from "../review/reviewList";
import { EMPTY_REVIEW, reconcile, type ReviewState } from "../review/reviewState";
import { pickReview } from "../review/reviewPick";
import type { ResultsLog } from "./resultsLog";

/** What ReviewActions drives. */
export interface ReviewActionsDeps {
  readonly review: ReviewList;
  readonly post: (m: ToWebview) => void;
  readonly diffs: DiffContentProvider;
  readonly results: ResultsLog;
  /** Called after the list changed (the editor's inline review redraws). */
  readonly changed?: () => void;
  /** The conversation shown (its session id): changes of others are listed under their own titles. */
  readonly current?: () => string | undefined;
  /** A conversation's title, if known. */
  readonly titleOf?: (sessionId: string) => string | undefined;
}

/** The changes editor's title (VS Code adds the count: "dsh: changes (3 files)"). */
const CHANGES_TITLE = "dsh: changes";

/** The open tabs of the changes editor (View all changes). */
function changesTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs.filter((t) => t.label === CHANGES_TITLE || t.label.startsWith(`${CHANGES_TITLE} (`)));
}

/** What the user does with the files awaiting review: diff, accept or reject one or all. */
export type ReviewAction = "accept" | "reject" | "diff";

/**
 * The review of the files a turn changed, from the chat view's list or
 * the QuickPick: each action is carried out on the ReviewList, the view's
 * list is posted again, and the results log records it.
 */
export class ReviewActions {
  private readonly deps: ReviewActionsDeps;

  constructor(deps: ReviewActionsDeps) {
    this.deps = deps;
  }

  /** Starts a new turn (the changes still under review stay listed) and shows the list. */
  startTurn(): void {
    this.deps.review.startTurn();
    this.show();
  }

  /** Posts the list as it is to the view, each file with its +/− line counts, and redraws the inline review. */
  show(): void {
    void this.post();
    this.deps.changed?.();
  }

  /**
   * Brings the list and the inline review up to date with the files' texts
   * now (the user edited one under review): its counts follow, and a file
   * edited back to its original leaves the list, as if kept.
   */
  async followEdits(): Promise<void> {
    await this.post();
    this.deps.changed?.();
  }

  /**
   * Takes in the review an earlier window kept, checked against the files
   * now (see reconcile), and shows it; the files whose review could not
   * be kept (too large) are said in the view.
   */
  async load(kept: ReviewState | undefined): Promise<void> {
    const { state } = await reconcile(kept ?? EMPTY_REVIEW, currentText);
    this.deps.review.load(state);
    const lost = kept?.tooLarge ?? [];
    if (lost.length > 0) {
      const names = lost.map((p) => path.basename(p)).join(", ");
      this.deps.post({ type: "notice", level: "info", text: `dsh: the review of ${names} did not survive the window reload (too large to keep); the agent's changes stay in ${lost.length === 1 ? "it" : "them"} as they are.` });
    }
    if (state.changes.length > 0) await this.followEdits();
  }

  /**
   * The rows of the shown conversation's changes first, then those of
   * each earlier conversation, labelled with its title (in the order
   * their files were first changed).
   */
  private async post(): Promise<void> {
    const current = this.deps.current?.();
    const mine: ReviewRow[] = [];
    const earlier = new Map<string, ReviewRow[]>();
    for (const { file, hunks } of await this.changed()) {
      const { added, removed } = lineCounts(hunks);
      const row = { path: file.path, created: file.original === null, added, removed };
      const from = file.conversation;
      if (from === undefined || from === current) mine.push(row);
      else earlier.set(from, [...(earlier.get(from) ?? []), { ...row, conversation: this.deps.titleOf?.(from) ?? "" }]);
    }
    this.deps.post({ type: "review", files: [...mine, ...[...earlier.values()].flat()] });
  }

  /**
   * The files under review that the agent's change really left changed,
   * with their hunks: a file whose text is its original again (the agent
   * wrote it back, the user undid it by hand, a file it created is gone)
   * leaves the list here, as there is nothing in it to review.
   */
  async changed(): Promise<{ readonly file: ChangedFile; readonly hunks: TextHunk[]; readonly base: string | null }[]> {
    const out: { readonly file: ChangedFile; readonly hunks: TextHunk[]; readonly base: string | null }[] = [];
    for (const file of this.deps.review.files()) {
      const current = await currentText(file.path);
      const base = this.deps.review.baseOf(file.path, current) ?? null;
      const hunks = textHunks(base ?? "", current ?? "");
      const unchanged = base === null ? current === undefined : current === base;
      if (unchanged) this.deps.review.accept(file.path);
      else out.push({ file, hunks, base });
    }
    return out;
  }

  /** The hunks of path's change still under review, in file order, with the file's text now. */
  async hunks(filePath: string): Promise<{ readonly hunks: TextHunk[]; readonly current: string; readonly base: string | null } | undefined> {
    const change = this.deps.review.get(filePath);
    if (!change) return undefined;
    const current = (await currentText(filePath)) ?? "";
    const base = this.deps.review.baseOf(filePath, current) ?? null;
    return { hunks: textHunks(base ?? "", current), current, base };
  }

  /** Keeps hunk index of path's change: it stays, and is no longer under review. */
  async keepHunk(filePath: string, index: number): Promise<void> {
    const now = await this.hunks(filePath);
    const h = now?.hunks[index];
    if (!now || !h) return;
    this.deps.review.keepPart(filePath, keepHunk(now.base ?? "", h), now.current);
    await this.reviewed();
    await this.deps.results.record("review", { action: "keepHunk", paths: [filePath], line: h.newLine + 1 });
  }

  /**
   * Undoes hunk index of path's change: exactly those lines go back to
   * the original's (an undoable edit, saved), and the agent is told at
   * the next prompt.
   */
  async undoHunk(filePath: string, index: number): Promise<void> {
    const now = await this.hunks(filePath);
    const h = now?.hunks[index];
    if (!now || !h) return;
    const reverted = undoHunk(now.current, h);
    await writeWholeFile(filePath, reverted);
    this.deps.review.undidPart({ path: filePath, line: h.newLine + 1, lines: lineCount(h.newText) }, reverted, now.base);
    await this.reviewed();
    await this.deps.results.record("review", { action: "undoHunk", paths: [filePath], line: h.newLine + 1 });
  }

  /** Opens every file the agent's change left changed in VS Code's multi-file diff editor (the original against the file). */
  async viewAll(): Promise<void> {
    const changed = await this.changed();
    if (changed.length === 0) return;
    // A created file has no original side: the changes editor then shows it as added (as VS Code's source control does).
    const resources = changed.map(({ file, base }) => {
      const uri = vscode.Uri.file(file.path);
      return [uri, base === null ? undefined : this.deps.diffs.register(file.path, base), uri] as const;
    });
    await vscode.commands.executeCommand("vscode.changes", CHANGES_TITLE, resources);
  }

  /**
   * Shows the list after the user kept or undid something, and brings an
   * open changes editor up to date: VS Code keeps the files (and the
   * count in its title) it was opened with, so it is closed and, when it
   * was in sight and changes are left, opened again with those left.
   */
  private async reviewed(): Promise<void> {
    this.show();
    const tabs = changesTabs();
    if (tabs.length === 0) return;
    const inSight = tabs.some((t) => t.isActive);
    await vscode.window.tabGroups.close(tabs, true);
    if (inSight) await this.viewAll();
  }

  /** Opens the review list as a QuickPick and carries out the choice. */
  async pick(): Promise<void> {
    const choice = await pickReview((await this.changed()).map((c) => c.file));
    if (!choice) return;
    if (choice.kind === "all") return choice.action === "accept" ? this.acceptAll() : this.rejectAll();
    return this.act(choice.action, choice.path);
  }

  /** Diffs, accepts or rejects one changed file; a path not in the list is ignored. */
  async act(action: ReviewAction, filePath: string): Promise<void> {
    const change = this.deps.review.get(filePath);
    if (!change) return;
    if (action === "diff") return openDiff(this.deps.diffs, filePath, this.deps.review.baseOf(filePath, await currentText(filePath)) ?? null);
    if (action === "accept") this.deps.review.accept(filePath);
    // A reject the user called off (their edits since the agent's write) changes nothing.
    else if (!(await this.deps.review.reject(filePath))) return;
    await this.reviewed();
    this.deps.post({ type: "reviewed", action, paths: [filePath] });
    await this.deps.results.record("review", { action, paths: [filePath] });
  }

  /** Accepts every changed file. */
  async acceptAll(): Promise<void> {
    const paths = this.deps.review.files().map((f) => f.path);
    this.deps.review.acceptAll();
    await this.reviewed();
    await this.deps.results.record("review", { action: "acceptAll", paths });
  }

  /** Rejects every changed file (each restored). */
  async rejectAll(): Promise<void> {
    const paths = await this.deps.review.rejectAll();
    await this.reviewed();
    this.deps.post({ type: "reviewed", action: "reject", paths });
    await this.deps.results.record("review", { action: "rejectAll", paths });
  }
}
