import * as path from "node:path";

/** The workspace files a prompt mentions as `@path` (relative to cwd, or absolute inside it), in order, each once; paths outside cwd are not mentions. */
export function mentionedPaths(text: string, cwd: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\s)@([^\s@]+)/g)) {
    const raw = (m[1] ?? "").replace(/[.,;:!?)]+$/, "");
    if (raw === "") continue;
    const abs = path.resolve(cwd, raw);
    const rel = path.relative(cwd, abs);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) continue;
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}
