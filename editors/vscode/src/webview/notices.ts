import type { Notice } from "@agentclientprotocol/sdk";
import { el } from "./dom";

/** The severities the chat styles; anything else is shown as info. */
const SEVERITIES: ReadonlySet<string> = new Set(["info", "warning", "error"]);

/**
 * The chat's note of an agent's notice: its title, and its description
 * (line breaks kept) under it, styled by severity. VS Code shows it as a
 * notification too; this line is what stays.
 */
export function noticeLine(n: Notice): HTMLElement {
  const severity = SEVERITIES.has(n.severity) ? n.severity : "info";
  const line = el("div", { class: `notice agent-notice ${severity}`, "data-testid": "agent-notice", "data-severity": severity, role: severity === "error" ? "alert" : "status" });
  line.append(el("div", { class: "notice-title" }, n.title));
  const description = (n.description ?? "").trim();
  if (description !== "") line.append(el("div", { class: "notice-description" }, description));
  return line;
}
