/** One hunk of a diff card: oldText replaced by newText (oldText null: the hunk has no old lines). */
export interface Hunk {
  readonly oldText: string | null;
  readonly newText: string;
}

/** Which side of a change a text is: before it, or after it. */
export type Side = "before" | "after";

/**
 * Both whole texts of a file change. disk says which of them is the text
 * the file held when they were built (undefined: neither; the sides are
 * then only the hunks' own texts, joined).
 */
export interface WholeFileSides {
  readonly before: string;
  readonly after: string;
  readonly disk: Side | undefined;
}

/**
 * The text that replacing each hunk's `from` side by its other side in
 * text gives, the hunks taken in file order, each found at or after the
 * end of the previous one (the first occurrence there). A side that is
 * empty matches only an empty text (a created or emptied file): its place
 * is not known otherwise. A created file (one hunk with no old text)
 * was nothing before: from after, that is the empty text, with no line at
 * all, whatever the file holds now (a final newline the editor added, a
 * later edit). Undefined when a hunk is not found.
 */
export function applyHunks(text: string, hunks: readonly Hunk[], from: Side): string | undefined {
  if (from === "after" && hunks.length === 1 && hunks[0]?.oldText === null) return "";
  let out = "";
  let cursor = 0;
  for (const h of hunks) {
    const find = from === "before" ? (h.oldText ?? "") : h.newText;
    const put = from === "before" ? h.newText : (h.oldText ?? "");
    if (find === "") {
      if (text !== "" || hunks.length !== 1) return undefined;
      return put;
    }
    const at = text.indexOf(find, cursor);
    if (at < 0) return undefined;
    out += text.slice(cursor, at) + put;
    cursor = at + find.length;
  }
  return out + text.slice(cursor);
}

/**
 * The whole file before and after a change shown as hunks, from the text
 * the file holds now (undefined: it does not exist). expected says which
 * side that text is thought to be (before for a change awaiting approval,
 * after for an applied one); the other side is tried when the hunks do
 * not fit it. When they fit neither, the sides are the hunks' own texts,
 * joined, and disk is undefined.
 */
export function wholeFileSides(hunks: readonly Hunk[], current: string | undefined, expected: Side): WholeFileSides {
  const text = current ?? "";
  for (const side of expected === "before" ? (["before", "after"] as const) : (["after", "before"] as const)) {
    const other = applyHunks(text, hunks, side);
    if (other === undefined) continue;
    return side === "before" ? { before: text, after: other, disk: "before" } : { before: other, after: text, disk: "after" };
  }
  return {
    before: hunks.map((h) => h.oldText ?? "").join(""),
    after: hunks.map((h) => h.newText).join(""),
    disk: undefined,
  };
}
