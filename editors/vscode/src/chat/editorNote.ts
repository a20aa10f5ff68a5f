// The note the extension puts before a prompt when the user rejected
// files in the review, and its recognition when a session is replayed
// (the agent replays it as a user message chunk of its own). Pure: the
// extension and the chat view's script both use it.

const HEAD =
  "Note from the editor: the user reviewed your last changes and rejected these files; " +
  "they were restored to their content before your changes. Do not redo these changes unless asked:\n";

/** The text telling the agent which files the user rejected and restored. */
export function rejectionNote(paths: readonly string[]): string {
  return HEAD + paths.map((p) => `- ${p}`).join("\n") + "\n\n";
}

/** The paths a rejection note names, or undefined when text is not one (the user's own words). */
export function rejectedPaths(text: string): string[] | undefined {
  if (!text.startsWith(HEAD)) return undefined;
  return text
    .slice(HEAD.length)
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}
