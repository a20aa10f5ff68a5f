import MarkdownIt from "markdown-it";
import { codeBlockHtml } from "./codeBlock";

// One renderer for every message: CommonMark plus tables and bare URLs as
// links; the input's own HTML is escaped, never passed through, and
// markdown-it refuses javascript:, vbscript:, file: and data: links
// (except images' data:image/…).
const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

md.renderer.rules["fence"] = (tokens, idx) => {
  const token = tokens[idx];
  const lang = (token?.info ?? "").trim().split(/\s+/)[0] ?? "";
  return codeBlockHtml(token?.content ?? "", lang);
};

// Links carry their target for the view's click handler (it asks the
// extension to open it); the webview itself navigates nowhere.
const defaultLinkOpen = md.renderer.rules["link_open"];
md.renderer.rules["link_open"] = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet("data-testid", "message-link");
  return defaultLinkOpen ? defaultLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/**
 * Renders an answer's Markdown to HTML the way VS Code's chat does:
 * headings, lists, tables, links (the href kept for the view to open
 * through the extension), inline code, and fenced code blocks highlighted
 * (highlight.js) with Copy and Insert buttons. The input's HTML is escaped. An
 * unclosed fence (a streaming answer) renders as code so far.
 */
export function renderMarkdown(src: string): string {
  return md.render(src);
}
