import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import { STOPPED_META } from "../chat/callMeta";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

/**
 * How dsh-acp says a cancel stopped a call: bash's own error ("Error: the
 * command was cancelled and its processes were stopped; output so far:
 * …", tools/shell), or the bridge's words for any other tool ("Stopped:
 * the turn was cancelled while it ran.", "Not run: the turn was cancelled
 * before it started.", bridge/result.go). It marks such a call failed.
 */
const STOPPED_TEXT = /^(?:Error: the command was cancelled\b|Stopped: the turn was cancelled\b|Not run: the turn was cancelled\b)/;

/** What a stopped command's card says when its output is already in its terminal. */
export const COMMAND_STOPPED = "Stopped: the command was cancelled.";

/** The text of content's one text block, if it has exactly one (and nothing else). */
function onlyText(content: readonly ToolCallContent[]): string | undefined {
  const [first, ...rest] = content;
  return rest.length === 0 && first?.type === "content" && first.content.type === "text" ? first.content.text : undefined;
}

/**
 * The update as the chat view shows it when a cancel stopped its call: a
 * failed one whose only text is dsh-acp's word for that gets STOPPED_META
 * (the card reads "cancelled"), and, when the card streams the command's
 * output in a terminal (hasTerminal), one short line instead of the error
 * that repeats that output. Any other update is returned as it is.
 */
export function stoppedView(u: ToolUpdate, hasTerminal: boolean): ToolUpdate {
  const text = u.status === "failed" && u.content != null ? onlyText(u.content) : undefined;
  if (text === undefined || !STOPPED_TEXT.test(text.replace(/^\s*`{3,}\w*\n/, ""))) return u;
  const shown: ToolUpdate = { ...u, _meta: { ...u._meta, [STOPPED_META]: true } };
  return hasTerminal ? { ...shown, content: [{ type: "content", content: { type: "text", text: COMMAND_STOPPED } }] } : shown;
}
