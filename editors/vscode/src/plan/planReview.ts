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
