import { textHunks, type TextHunk } from "./hunks";

// Whether the spans [a1, a2) and [b1, b2) of one text overlap; an empty
// span (an insertion point) overlaps a span it lies strictly inside.
// Spans that only touch do not.
function overlaps(a1: number, a2: number, b1: number, b2: number): boolean {
  if (a1 === a2) return b1 < a1 && a1 < b2;
  if (b1 === b2) return a1 < b1 && b1 < a2;
  return a1 < b2 && b1 < a2;
}

// Where offset of the agent's text (written) stands in the original: the
// agent's hunks wholly before it moved it by their change of length.
function originalOffset(agent: readonly TextHunk[], offset: number): number {
  let shift = 0;
  for (const a of agent) if (a.newOffset + a.newText.length <= offset) shift += a.newText.length - a.oldText.length;
  return offset - shift;
}

/** The original with the user's edits carried over (rebaseOriginal), and whether all of them were. */
export interface Rebased {
  base: string;
  /** False when an edit of the user's lay inside one of the agent's changed regions (it is not in base). */
  allCarried: boolean;
}

/**
 * The original of a change under review with the user's own edits made
 * since the agent's last write carried over: written is what that write
 * left in the file, current its text now. Each of the user's edits that
 * does not touch one of the agent's changed regions is applied to the
 * original too, so that diffing the result with current gives the
 * agent's changes alone: the user's lines are neither counted, shown nor
 * offered to Undo as the agent's. An edit inside one of the agent's
 * regions stays in that region's hunk (the user changed the agent's
 * lines: the hunk shows them as they are now).
 */
export function rebaseOriginal(original: string, written: string, current: string): string {
  return rebase(original, written, current).base;
}

/** rebaseOriginal, saying too whether every edit of the user's was carried over. */
export function rebase(original: string, written: string, current: string): Rebased {
  if (current === written) return { base: original, allCarried: true };
  const agent = textHunks(original, written);
  const user = textHunks(written, current);
  let out = original;
  let allCarried = true;
  for (const u of [...user].reverse()) {
    const start = u.oldOffset;
    const end = u.oldOffset + u.oldText.length;
    if (agent.some((a) => overlaps(start, end, a.newOffset, a.newOffset + a.newText.length))) {
      allCarried = false;
      continue;
    }
    const at = originalOffset(agent, start);
    out = out.slice(0, at) + u.newText + out.slice(at + u.oldText.length);
  }
  return { base: out, allCarried };
}

/**
 * What undoing a whole file's change writes: text (null deletes the file
 * the agent created), and whether that loses edits of the user's, which
 * must be asked first. original is the file before the agent's change,
 * written what its last write left (undefined when not known), current
 * the file's text now (undefined when it is gone). The user's edits
 * outside the agent's changed regions stay; edits inside them, a created
 * file they edited, or a file they deleted are at stake.
 */
export function undoTarget(original: string | null, written: string | undefined, current: string | undefined): { text: string | null; losesUserEdits: boolean } {
  if (written === undefined || current === written) return { text: original, losesUserEdits: false };
  if (original === null || current === undefined) return { text: original, losesUserEdits: true };
  const { base, allCarried } = rebase(original, written, current);
  return { text: base, losesUserEdits: !allCarried };
}
