/** Escapes text for use inside HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Inline markup of one escaped line: `code`, **bold**, *italic*. */
function inline(escaped: string): string {
  const parts = escaped.split(/(`[^`]+`)/);
  return parts
    .map((p) => {
      if (p.length > 1 && p.startsWith("`") && p.endsWith("`")) return `<code>${p.slice(1, -1)}</code>`;
      return p.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>").replace(/(^|[^*])\*([^*\s][^*]*)\*/g, "$1<em>$2</em>");
    })
    .join("");
}

/**
 * Renders a small, safe subset of Markdown to HTML: fenced code blocks,
 * headings, bullet and numbered lists, paragraphs, inline code, bold and
 * italic. Every character of the input is escaped first, so no markup of
 * the input survives and nothing is loaded (links stay text). An unclosed
 * fence (a streaming answer) renders as code so far.
 */
export function renderMarkdown(src: string): string {
  const out: string[] = [];
  const lines = src.split("\n");
  let para: string[] = [];
  let list: { tag: "ul" | "ol"; items: string[] } | undefined;
  const flushPara = (): void => {
    if (para.length) out.push(`<p>${para.map((l) => inline(escapeHtml(l))).join("<br>")}</p>`);
    para = [];
  };
  const flushList = (): void => {
    if (list) out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(escapeHtml(i))}</li>`).join("")}</${list.tag}>`);
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const fence = /^\s*```(\S*)/.exec(line);
    if (fence) {
      flushPara();
      flushList();
      const code: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```\s*$/.test(lines[i] ?? "")) code.push(lines[i++] ?? "");
      const lang = fence[1] ? ` data-lang="${escapeHtml(fence[1])}"` : "";
      out.push(`<pre><code${lang}>${escapeHtml(code.join("\n"))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (heading) {
      flushPara();
      flushList();
      const level = Math.min(6, (heading[1] ?? "#").length + 2);
      out.push(`<h${level}>${inline(escapeHtml(heading[2] ?? ""))}</h${level}>`);
    } else if (bullet || numbered) {
      flushPara();
      const tag = bullet ? "ul" : "ol";
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push((bullet ?? numbered)?.[1] ?? "");
    } else if (line.trim() === "") {
      flushPara();
      flushList();
    } else {
      flushList();
      para.push(line);
    }
  }
  flushPara();
  flushList();
  return out.join("");
}
