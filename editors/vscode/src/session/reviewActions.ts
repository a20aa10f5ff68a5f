import type { ToWebview } from "../chat/messages";
import { openDiff, type DiffContentProvider } from "../diff/provider";
import type { ReviewList } from "../review/reviewList";
import { pickReview } from "../review/reviewPick";
import type { ResultsLog } from "./resultsLog";

/** What ReviewActions drives. */
export interface ReviewActionsDeps {
  readonly review: ReviewList;
  readonly post: (m: ToWebview) => void;
  readonly diffs: DiffContentProvider;
  readonly results: ResultsLog;
}

/** What the user does with the turn's changed files: diff, accept or reject one or all. */
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

  /** Starts a new turn's list (earlier changes count as accepted) and shows it. */
  startTurn(): void {
    this.deps.review.startTurn();
    this.show();
  }

  /** Posts the list as it is to the view. */
  show(): void {
    this.deps.post({ type: "review", files: this.deps.review.files().map((f) => ({ path: f.path, created: f.original === null })) });
  }

  /** Opens the review list as a QuickPick and carries out the choice. */
  async pick(): Promise<void> {
    const choice = await pickReview(this.deps.review.files());
    if (!choice) return;
    if (choice.kind === "all") return choice.action === "accept" ? this.acceptAll() : this.rejectAll();
    return this.act(choice.action, choice.path);
  }

  /** Diffs, accepts or rejects one changed file; a path not in the list is ignored. */
  async act(action: ReviewAction, filePath: string): Promise<void> {
    const change = this.deps.review.get(filePath);
    if (!change) return;
    if (action === "diff") return openDiff(this.deps.diffs, filePath, change.original);
    if (action === "accept") this.deps.review.accept(filePath);
    else await this.deps.review.reject(filePath);
    this.show();
    this.deps.post({ type: "reviewed", action, paths: [filePath] });
    await this.deps.results.record("review", { action, paths: [filePath] });
  }

  /** Accepts every changed file. */
  async acceptAll(): Promise<void> {
    const paths = this.deps.review.files().map((f) => f.path);
    this.deps.review.acceptAll();
    this.show();
    await this.deps.results.record("review", { action: "acceptAll", paths });
  }

  /** Rejects every changed file (each restored). */
  async rejectAll(): Promise<void> {
    const paths = this.deps.review.files().map((f) => f.path);
    await this.deps.review.rejectAll();
    this.show();
    this.deps.post({ type: "reviewed", action: "reject", paths });
    await this.deps.results.record("review", { action: "rejectAll", paths });
  }
}
