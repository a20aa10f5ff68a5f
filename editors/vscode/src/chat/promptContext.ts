// The context a replayed prompt carried, read back from its text.
// dsh-acp stores a prompt flattened to text (bridge/prompt.go): the
// user's words, then for each embedded resource a line
// `[resource uri="…"]` and the text in a fence, and for each resource
// link a line `[resource_link name="…" uri="…"]` followed by the file's
// text in a fence, a note saying why it is not there, or nothing. A fence
// is three backticks or more, one more than the longest run in its text.
// Pure: the chat view's script uses it.

/** One context a prompt carried: the file, and the lines of a selection (1-based, inclusive). */
export interface PromptContext {
  /** The file's path (the URI's path, decoded), or the URI itself when it is not a file:// one. */
  readonly path: string;
  readonly lines?: { readonly first: number; readonly last: number };
}

// `\n[resource uri="…"]\n` or `\n[resource_link name="…" uri="…"]\n`, Go-quoted strings.
const QUOTED = String.raw`"(?:[^"\\\n]|\\.)*"`;
const MARKER = new RegExp(String.raw`\n\[(?:resource uri=(${QUOTED})|resource_link name=${QUOTED} uri=(${QUOTED}))\]\n`, "y");
const FENCE_OPEN = /(`{3,})[^`\n]*\n/y;
// What may follow a fence: how much of the text was cut; then the newline ending the resource.
const TRUNCATED = /\n\[truncated: [^\]\n]*\]/y;
// A resource shown once above, or one not included (too large, not read).
const NOTE = /\[(?:included once above|not included: [^\n]*)\]\n/y;

/** A Go-quoted string's value (its quotes and escapes undone); the text between the quotes when it does not read as one. */
function unquote(q: string): string {
  try {
    const v: unknown = JSON.parse(q);
    return typeof v === "string" ? v : q.slice(1, -1);
  } catch {
    return q.slice(1, -1);
  }
}

/** The context a resource URI names: a file:// URI's decoded path, with the lines of a `#L5-L7` fragment. */
export function uriContext(uri: string): PromptContext {
  const m = /^file:\/\/(?:localhost)?(\/[^#?]*)(?:\?[^#]*)?(?:#L(\d+)(?:-L?(\d+))?)?$/.exec(uri);
  if (!m) return { path: uri };
  let path = m[1] ?? "";
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: the path as written
  }
  if (m[2] === undefined) return { path };
  const first = Number(m[2]);
  return { path, lines: { first, last: m[3] === undefined ? first : Number(m[3]) } };
}

/** Where the sticky pattern re matches text at at, and its match; undefined when it does not. */
function matchAt(re: RegExp, text: string, at: number): RegExpExecArray | undefined {
  re.lastIndex = at;
  return re.exec(text) ?? undefined;
}

/** The end of the body after a marker at at: a fence (and its truncation note), a note, or nothing; undefined for a fence never closed. */
function bodyEnd(text: string, at: number): number | undefined {
  const open = matchAt(FENCE_OPEN, text, at);
  if (open) {
    const fence = open[1] ?? "```";
    const openEnd = at + open[0].length;
    // The text holds no run of the fence's backticks: the first is its close, on a line of its own.
    const close = text.indexOf(`\n${fence}`, openEnd - 1);
    if (close < 0) return undefined;
    let end = close + 1 + fence.length;
    const cut = matchAt(TRUNCATED, text, end);
    if (cut) end += cut[0].length;
    return text.startsWith("\n", end) ? end + 1 : end;
  }
  const note = matchAt(NOTE, text, at);
  return note ? at + note[0].length : at;
}

/** The contexts of text from at to its end when it is all contexts; undefined when it is not. */
function contextsFrom(text: string, at: number): PromptContext[] | undefined {
  const out: PromptContext[] = [];
  let pos = at;
  while (pos < text.length) {
    if (text.slice(pos).trim() === "") return out;
    const marker = matchAt(MARKER, text, pos);
    if (!marker) return undefined;
    out.push(uriContext(unquote(marker[1] ?? marker[2] ?? '""')));
    const end = bodyEnd(text, pos + marker[0].length);
    if (end === undefined) return undefined;
    pos = end;
  }
  return out;
}

/**
 * A replayed prompt's text split into the user's own text and the
 * contexts it carried: from the first marker line after which the rest
 * of the text is all contexts (a marker-like line inside a file's text,
 * or in the user's words, is not taken for one). contexts is empty, and
 * own the whole text, when it carried none.
 */
export function splitPromptContext(text: string): { readonly own: string; readonly contexts: readonly PromptContext[] } {
  for (let at = text.indexOf("\n["); at >= 0; at = text.indexOf("\n[", at + 1)) {
    const contexts = contextsFrom(text, at);
    if (contexts && contexts.length > 0) return { own: text.slice(0, at), contexts };
  }
  return { own: text, contexts: [] };
}

/** How the chat view names a context, as it does a live prompt's: the path (relative, by relative) with the lines, `shop/cart.py:5-7`. */
export function promptContextLabel(c: PromptContext, relative: (path: string) => string): string {
  const shown = relative(c.path);
  if (!c.lines) return shown;
  return c.lines.first === c.lines.last ? `${shown}:${c.lines.first}` : `${shown}:${c.lines.first}-${c.lines.last}`;
}
