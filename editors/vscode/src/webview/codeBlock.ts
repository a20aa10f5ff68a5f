import { escapeHtml } from "./dom";
import { highlightCode } from "./highlight";

/**
 * A code block's HTML: the code highlighted for lang (escaped as it is
 * for no or an unknown language), with Copy and Insert buttons (the
 * view's click handler sends the code to the extension). lineNumbers,
 * when given, show in a gutter beside the code, outside the code element,
 * so Copy and Insert take the code alone.
 */
export function codeBlockHtml(code: string, lang: string, lineNumbers?: readonly number[]): string {
  const body = highlightCode(code, lang) ?? escapeHtml(code);
  const langAttr = lang ? ` data-lang="${escapeHtml(lang)}"` : "";
  const gutter = lineNumbers?.length ? `<span class="code-gutter" aria-hidden="true">${lineNumbers.join("\n")}</span>` : "";
  return (
    `<div class="code-block">` +
    `<div class="code-actions">` +
    `<button class="code-copy" data-testid="code-copy" title="Copy">Copy</button>` +
    `<button class="code-insert" data-testid="code-insert" title="Insert at cursor">Insert</button>` +
    `</div>` +
    `<pre${gutter ? ` class="numbered"` : ""}>${gutter}<code class="hljs"${langAttr}>${body}</code></pre></div>`
  );
}
