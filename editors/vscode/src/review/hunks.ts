import { diffLines } from "diff";

/**
 * One changed region of a file: the lines oldText of the original, at
 * oldOffset, replaced by the lines newText of the current text, at
 * newOffset (character offsets), starting at the 0-based line newLine of
 * the current text. Either side may be empty (a pure insertion or
 * deletion), never both.
 */
export interface TextHunk {
  readonly oldOffset: number;
  readonly oldText: string;
  readonly newOffset: number;
  readonly newText: string;
  readonly oldLine: number;
  readonly newLine: number;
}

/** The number of lines text holds (a last line without a line break counts). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * The hunks turning original into current, in file order, without
 * context: each run of removed and added lines between unchanged ones
 * (a line diff, jsdiff's diffLines). Identical texts give none.
 */
export function textHunks(original: string, current: string): TextHunk[] {
  const out: TextHunk[] = [];
  let oldOffset = 0;
  let newOffset = 0;
  let oldLine = 0;
  let newLine = 0;
  let open: { oldOffset: number; oldText: string; newOffset: number; newText: string; oldLine: number; newLine: number } | undefined;
  for (const c of diffLines(original, current)) {
    if (!c.added && !c.removed) {
      if (open) out.push(open);
      open = undefined;
      oldOffset += c.value.length;
      newOffset += c.value.length;
      oldLine += lineCount(c.value);
      newLine += lineCount(c.value);
      continue;
    }
    open ??= { oldOffset, oldText: "", newOffset, newText: "", oldLine, newLine };
    if (c.removed) {
      open.oldText += c.value;
      oldOffset += c.value.length;
      oldLine += lineCount(c.value);
    } else {
      open.newText += c.value;
      newOffset += c.value.length;
      newLine += lineCount(c.value);
    }
  }
  if (open) out.push(open);
  return out;
}

/** current with hunk h put back as the original had it (the user undid it). */
export function undoHunk(current: string, h: TextHunk): string {
  return current.slice(0, h.newOffset) + h.oldText + current.slice(h.newOffset + h.newText.length);
}

/** original with hunk h taken in (the user kept it): the hunk is no longer a change. */
export function keepHunk(original: string, h: TextHunk): string {
  return original.slice(0, h.oldOffset) + h.newText + original.slice(h.oldOffset + h.oldText.length);
}

/** Lines added and removed by the hunks (the +/− counts). */
export function lineCounts(hunks: readonly TextHunk[]): { readonly added: number; readonly removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += lineCount(h.newText);
    removed += lineCount(h.oldText);
  }
  return { added, removed };
}
