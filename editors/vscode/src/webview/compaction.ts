import type { CompactionSummaryChunk, CompactionUpdate, ContentBlock } from "@agentclientprotocol/sdk";
import { el } from "./dom";
import { renderMarkdown } from "./markdown";

/** What a compaction's headline says in each status (an unknown status is shown as it came). */
const HEADLINES: Readonly<Record<string, string>> = {
  in_progress: "Compacting the conversation…",
  completed: "Conversation compacted",
  failed: "Compaction failed",
  cancelled: "Compaction cancelled",
};

/** The text of content blocks as the summary shows it (other blocks are left out). */
function blockText(blocks: readonly ContentBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/**
 * One compaction in the chat, at the place its first update put it: a
 * spinner while it runs, then its outcome; its summary (Markdown) folds
 * under "Summary", and a failure says why.
 */
class CompactionCard {
  readonly root = el("div", { class: "compaction", "data-testid": "compaction" });
  private readonly headline = el("div", { class: "compaction-title", "data-testid": "compaction-title" });
  private readonly details = el("details", { class: "compaction-summary", "data-testid": "compaction-summary", hidden: "" });
  private readonly body = el("div", { class: "compaction-body" });
  private readonly error = el("div", { class: "compaction-error", "data-testid": "compaction-error", hidden: "" });
  private summary = "";

  constructor(id: string) {
    this.root.dataset["compactionId"] = id;
    this.details.append(el("summary", {}, "Summary"), this.body);
    this.root.append(this.headline, this.details, this.error);
    this.setStatus("in_progress");
  }

  /** Applies a compaction_update: status always; summary and error as patches (absent: unchanged, null: cleared). */
  update(u: CompactionUpdate): void {
    this.setStatus(u.status);
    if (u.summary !== undefined) this.setSummary(blockText(u.summary ?? []));
    if (u.error !== undefined) {
      this.error.textContent = u.error ?? "";
      this.error.hidden = (u.error ?? "") === "";
    }
  }

  /** Appends a summary chunk. */
  append(content: ContentBlock): void {
    this.setSummary(this.summary + blockText([content]));
  }

  private setStatus(status: string): void {
    this.root.dataset["status"] = status;
    this.headline.replaceChildren();
    if (status === "in_progress") this.headline.append(el("span", { class: "spinner", "aria-hidden": "true" }), " ");
    this.headline.append(HEADLINES[status] ?? `Compaction: ${status}`);
  }

  private setSummary(text: string): void {
    this.summary = text;
    this.details.hidden = text === "";
    this.body.innerHTML = renderMarkdown(text);
  }
}

/**
 * The compactions of the conversation, by id: the first update or chunk
 * of an id makes its card (returned, for the log to place), later ones
 * patch it in place.
 */
export class Compactions {
  private readonly cards = new Map<string, CompactionCard>();

  /** Applies u; returns the new card's element when u is the id's first. */
  apply(u: (CompactionUpdate & { sessionUpdate: "compaction_update" }) | (CompactionSummaryChunk & { sessionUpdate: "compaction_summary_chunk" })): HTMLElement | undefined {
    let card = this.cards.get(u.compactionId);
    const created = card === undefined;
    card ??= new CompactionCard(u.compactionId);
    this.cards.set(u.compactionId, card);
    if (u.sessionUpdate === "compaction_update") card.update(u);
    else card.append(u.content);
    return created ? card.root : undefined;
  }

  /** Forgets every card (another session). */
  clear(): void {
    this.cards.clear();
  }
}
