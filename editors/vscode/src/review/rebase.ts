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
  if (current === written) return original;
  const agent = textHunks(original, written);
  const user = textHunks(written, current);
  let out = original;
  for (const u of [...user].reverse()) {
    const start = u.oldOffset;
    const end = u.oldOffset + u.oldText.length;
    if (agent.some((a) => overlaps(start, end, a.newOffset, a.newOffset + a.newText.length))) continue;
    const at = originalOffset(agent, start);
    out = out.slice(0, at) + u.newText + out.slice(at + u.oldText.length);
  }
  return out;
}
