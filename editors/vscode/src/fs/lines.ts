/**
 * The part of text ACP's fs/read_text_file asks for: from the 1-based
 * line, at most limit lines (line endings kept). Without either, the
 * whole text.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (line == null && limit == null) return text;
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit == null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join("");
}
