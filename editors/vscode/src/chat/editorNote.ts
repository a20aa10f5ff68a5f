// The note the extension puts before a prompt when the user rejected
// files, or undid parts of them, in the review, and its recognition when
// a session is replayed (the agent replays it as a user message chunk of
// its own). Pure: the extension and the chat view's script both use it.

const MARK = "Note from the editor: ";

const REJECTED =
  MARK +
  "the user reviewed your last changes and rejected these files; " +
  "they were restored to their content before your changes. Do not redo these changes unless asked:\n";

const UNDONE =
  MARK +
  "the user reviewed your last changes and undid these parts of them (the rest is kept); " +
  "each is back as it was before your change. Do not redo them unless asked:\n";

/** One part of a change the user undid: where it starts in the file now (1-based line) and how many lines of yours it took out. */
export interface UndoneHunk {
  readonly path: string;
  readonly line: number;
  readonly lines: number;
}

/** The text telling the agent which files the user rejected and restored. */
export function rejectionNote(paths: readonly string[]): string {
  return REJECTED + paths.map((p) => `- ${p}`).join("\n") + "\n\n";
}

/** The text telling the agent which parts of its changes the user undid. */
export function undoneNote(hunks: readonly UndoneHunk[]): string {
  return UNDONE + hunks.map((h) => `- ${h.path}, line ${h.line}: ${h.lines} ${h.lines === 1 ? "line" : "lines"} of yours undone`).join("\n") + "\n\n";
}

/**
 * A replayed prompt's text split into the editor's notes and the user's
 * own words: dsh-acp joins a prompt's text blocks into one, so the words
 * and the notes after them on their own lines (before them, in sessions
 * of older versions), each note ending in a blank line, come back as one
 * text. note is undefined when the text holds none.
 */
export function splitEditorNote(text: string): { readonly note?: ReturnType<typeof readEditorNote>; readonly own: string } {
  const at = text.startsWith(MARK) ? 0 : text.indexOf(`\n\n${MARK}`);
  if (at < 0) return { own: text };
  const before = text.slice(0, at);
  let rest = text.slice(at).replace(/^\n\n/, "");
  let notes = "";
  while (rest.startsWith(MARK)) {
    const end = rest.indexOf("\n\n");
    const cut = end < 0 ? rest.length : end + 2;
    notes += rest.slice(0, cut);
    rest = rest.slice(cut);
  }
  return { note: readEditorNote(notes), own: before === "" ? rest : rest === "" ? before : `${before}\n\n${rest}` };
}

/** What a replayed note says: the files rejected and the paths with undone parts; undefined when text is the user's own words. */
export function readEditorNote(text: string): { readonly rejected: string[]; readonly undone: string[] } | undefined {
  if (!text.startsWith(MARK)) return undefined;
  const rejected: string[] = [];
  const undone: string[] = [];
  let into: string[] | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith(REJECTED.slice(0, -1))) into = rejected;
    else if (line.startsWith(UNDONE.slice(0, -1))) into = undone;
    else if (line.startsWith("- ") && into) into.push(into === undone ? line.slice(2).replace(/, line \d+: .*$/, "") : line.slice(2));
  }
  return { rejected, undone: [...new Set(undone)] };
}
