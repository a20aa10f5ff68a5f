// Recognising the agent's plan review: a session/request_permission whose
// call switches mode (exit_plan_mode: "Implement the plan" / "Keep
// planning"), and the Markdown plan it asks about. Pure: no vscode import.
import type { RequestPermissionRequest, ToolCallContent } from "@agentclientprotocol/sdk";
import type { ToolCallState } from "../session/toolCalls";

/** The text of a call's plain content blocks, joined by blank lines. */
function contentText(content: readonly ToolCallContent[] | null | undefined): string {
  const texts: string[] = [];
  for (const c of content ?? []) if (c.type === "content" && c.content.type === "text") texts.push(c.content.text);
  return texts.join("\n\n");
}

/** The plan argument of a call's raw input ({plan: "..."}), if it has one. */
function planArgument(rawInput: unknown): string | undefined {
  if (rawInput === null || typeof rawInput !== "object" || !("plan" in rawInput)) return undefined;
  const plan = rawInput.plan;
  return typeof plan === "string" ? plan : undefined;
}

/**
 * The Markdown plan req asks to implement, when req is a plan review (its
 * call's kind, on the request or as the session knows the call, is
 * switch_mode): the call's plan argument, else its text content; undefined
 * for any other request, or a plan review with no text.
 */
export function reviewedPlan(req: RequestPermissionRequest, call: ToolCallState | undefined): string | undefined {
  if ((req.toolCall.kind ?? call?.kind) !== "switch_mode") return undefined;
  const plan = planArgument(req.toolCall.rawInput) ?? planArgument(call?.rawInput) ?? contentText(req.toolCall.content);
  return plan.trim() === "" ? undefined : plan;
}

// The HTML elements that load something when rendered.
const LOADING_TAGS = /<(?=\/?\s*(?:img|picture|source|video|audio|iframe|object|embed|link|image|svg|track|input)\b)/gi;

/**
 * The plan as the Markdown preview may render it without loading anything
 * the plan names: an image (`![alt](url)`, `![alt][ref]`) becomes a link,
 * which loads only when the user follows it, and an HTML element that
 * loads (img, video, iframe, …) is shown as text. The plan is the model's
 * text: a prompt-injected model could otherwise put what it read into an
 * image's address, and the preview (which loads https images) would send
 * it. The rest of the Markdown is kept as it is.
 */
export function previewSafe(markdown: string): string {
  return markdown.replace(/!(?=\[)/g, "").replace(LOADING_TAGS, "&lt;");
}

/** The most lines and characters of a plan a modal's detail shows. */
const EXCERPT_LINES = 14;
const EXCERPT_CHARS = 1200;

/**
 * A line of Markdown as plain text a modal shows readably: no heading
 * hashes, emphasis markers, backticks, quote marks or link addresses (a
 * link is its text); a bullet is "•"; a rule or a code fence is dropped
 * (empty). A numbered list keeps its numbers.
 */
export function plainLine(line: string): string {
  if (/^\s*(?:([-*_])(?:\s*\1){2,}|```|~~~)\s*$/.test(line) || /^\s*(?:```|~~~)/.test(line)) return "";
  return line
    .replace(/^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?$/, "$1")
    .replace(/^(\s*)>\s?/, "$1")
    .replace(/^(\s*)[-*+]\s+/, "$1• ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, "$2")
    .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])/g, "$1$2")
    .replace(/(^|[^\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])/g, "$1$2")
    .replace(/`([^`]*)`/g, "$1");
}

/**
 * The start of a plan as plain text for a modal's detail (which renders no
 * Markdown and does not scroll): its first lines as plainLine reads them,
 * without blank ones, at most EXCERPT_LINES and EXCERPT_CHARS, and how
 * many lines are left out.
 */
export function planExcerpt(markdown: string): string {
  const lines = markdown.split(/\r?\n/).map((l) => plainLine(l).trimEnd()).filter((l) => l.trim() !== "");
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (kept.length === EXCERPT_LINES || size + line.length > EXCERPT_CHARS) break;
    kept.push(line);
    size += line.length + 1;
  }
  if (kept.length === 0 && lines[0] !== undefined) kept.push(`${lines[0].slice(0, EXCERPT_CHARS)}…`);
  const left = lines.length - kept.length;
  if (left > 0) kept.push(`… and ${left} more ${left === 1 ? "line" : "lines"}`);
  return kept.join("\n");
}
