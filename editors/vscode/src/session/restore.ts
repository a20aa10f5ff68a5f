/**
 * The slash commands dsh-acp answers itself, without a model turn: they
 * take no checkpoint, so restoring over them undoes nothing (/undo itself
 * takes one turn's checkpoint off the stack, /rewind one turn off the
 * conversation). Any other prompt, /init and the user's own commands
 * included, is a model turn with a checkpoint.
 */
const LOCAL_COMMANDS: ReadonlySet<string> = new Set(["undo", "rewind", "compact", "permissions", "help"]);

/** The command that takes the last turn back, its files and its place in the conversation. */
export const REWIND = "rewind";

/** The slash command a prompt starts with ("undo" for "/undo 2"), if it is one. */
function commandOf(text: string): string | undefined {
  const m = /^\/(\S+)/.exec(text.trim());
  return m?.[1];
}

/**
 * How many /undo it takes to put the workspace back as it was before the
 * first of texts, the user's prompts from that one to the last, in order:
 * each model turn took a checkpoint, each /undo took the latest off (one
 * past the first prompt's turns undid an earlier turn, already as the
 * restore wants it), a local command took none.
 */
export function undoCount(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) {
    const cmd = commandOf(t);
    if (cmd === "undo") n = Math.max(0, n - 1);
    else if (cmd === undefined || !LOCAL_COMMANDS.has(cmd)) n++;
  }
  return n;
}

/**
 * How many /rewind it takes to put the workspace and the conversation
 * back as they were before the first of texts (the user's prompts from
 * that one to the last, in order): one /rewind takes back the last model
 * turn still in the conversation (reverting its files unless an /undo
 * already did), so each model turn counts, an /undo does not lower the
 * count, and a /rewind typed since took one back already.
 */
export function rewindCount(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) {
    const cmd = commandOf(t);
    if (cmd === REWIND) n = Math.max(0, n - 1);
    else if (cmd === undefined || !LOCAL_COMMANDS.has(cmd)) n++;
  }
  return n;
}

/** Whether text is a slash command (the editor's notes must not go before it, or dsh-acp would not read it as one). */
export function isSlashCommand(text: string): boolean {
  return commandOf(text) !== undefined;
}

/** Where a "restore to here" goes: the user message's place in the conversation, and its text and every later prompt's. */
export interface RestorePoint {
  /** The 0-based index of the user message among the conversation's user messages. */
  readonly index: number;
  readonly texts: readonly string[];
}

/** The most prompts a restore goes back over (each may cost an /undo). */
export const MAX_RESTORE_PROMPTS = 1000;

/** A restore point as the view sent it, read defensively (undefined when it is not one, or goes back over more than MAX_RESTORE_PROMPTS). */
export function restorePoint(v: unknown): RestorePoint | undefined {
  if (v === null || typeof v !== "object") return undefined;
  const { index, texts } = v as Record<string, unknown>;
  if (typeof index !== "number" || !Number.isInteger(index) || index < 0) return undefined;
  if (!Array.isArray(texts) || texts.length === 0 || texts.length > MAX_RESTORE_PROMPTS) return undefined;
  if (!(texts as unknown[]).every((t) => typeof t === "string")) return undefined;
  return { index, texts: texts as string[] };
}
