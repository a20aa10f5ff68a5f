import * as path from "node:path";

/** A workspace file a prompt mentions, with the 1-based lines it names (`@a.ts#L10-20`), if any. */
export interface Mention {
  /** Absolute path, inside the workspace. */
  readonly path: string;
  /** The first and last line named (1-based, first <= last); undefined for the whole file. */
  readonly lines?: { readonly first: number; readonly last: number } | undefined;
}

// "#L10", "#L10-20", "#L10-L20" after a path.
const LINES = /#L(\d+)(?:-L?(\d+))?$/;

/** The lines a mention's "#L…" suffix names, normalized (first <= last), or undefined. */
function linesOf(suffix: RegExpExecArray | null): Mention["lines"] {
  if (!suffix) return undefined;
  const a = Number(suffix[1]);
  const b = suffix[2] === undefined ? a : Number(suffix[2]);
  if (!(a >= 1) || !(b >= 1)) return undefined;
  return { first: Math.min(a, b), last: Math.max(a, b) };
}

/**
 * The workspace files a prompt mentions as `@path` or `@path#L10-20`
 * (relative to cwd, or absolute inside it), in order, each mention once;
 * paths outside cwd are not mentions.
 */
export function mentions(text: string, cwd: string): Mention[] {
  const out: Mention[] = [];
  for (const m of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const word = (m[1] ?? "").replace(/[.,;:!?)]+$/, "");
    const suffix = LINES.exec(word);
    const raw = suffix ? word.slice(0, suffix.index) : word;
    if (raw === "") continue;
    const abs = path.resolve(cwd, raw);
    const rel = path.relative(cwd, abs);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) continue;
    const mention: Mention = { path: abs, lines: linesOf(suffix) };
    if (!out.some((o) => o.path === abs && o.lines?.first === mention.lines?.first && o.lines?.last === mention.lines?.last)) out.push(mention);
  }
  return out;
}

/** The mention's text in a prompt: `rel` or `rel#L10-20` (lines 1-based; one line is `#L10`). */
export function mentionText(rel: string, lines?: { readonly first: number; readonly last: number }): string {
  if (!lines) return rel;
  return lines.first === lines.last ? `${rel}#L${lines.first}` : `${rel}#L${lines.first}-${lines.last}`;
}
