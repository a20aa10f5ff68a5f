import type { PermissionOption, SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { FromWebview } from "../chat/messages";
import { el, part } from "./dom";
import { renderMarkdown } from "./markdown";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;
type Send = (m: FromWebview) => void;

function meta(u: ToolUpdate, key: string): Record<string, unknown> | undefined {
  const v = u._meta?.[key];
  return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
}

/**
 * One tool call's card: title and status, its locations (click to open),
 * its content (diff rows with "Open diff", text), its command output, and
 * the inline approval buttons while the agent asks.
 */
export class ToolCard {
  /** The card's root element. */
  readonly root: HTMLElement;
  private readonly id: string;
  private readonly send: Send;

  constructor(id: string, send: Send) {
    this.id = id;
    this.send = send;
    this.root = el("div", { class: "tool-card", "data-testid": "tool-card", "data-tool-call-id": id });
    this.root.append(
      el("div", { class: "tool-title" }),
      el("div", { class: "tool-paths" }),
      el("div", { class: "tool-body" }),
      el("pre", { class: "tool-terminal", "data-testid": "tool-terminal", hidden: "" }),
      el("div", { class: "tool-permission" }),
    );
  }

  /** Applies a tool_call or tool_call_update. */
  apply(u: ToolUpdate): void {
    if (u.title != null) part(this.root, "tool-title").textContent = u.title;
    if (u.status != null) this.root.dataset["status"] = u.status;
    if (u.kind != null) this.root.dataset["kind"] = u.kind;
    if (u.locations != null) this.locations(u.locations);
    if (u.content != null) this.content(u.content);
    this.terminal(u);
  }

  /** Shows the approval question with the agent's options. */
  ask(requestId: string, title: string, options: readonly PermissionOption[]): void {
    const t = part(this.root, "tool-title");
    if (title && !t.textContent) t.textContent = title;
    const box = part(this.root, "tool-permission");
    box.dataset["requestId"] = requestId;
    box.replaceChildren(el("span", { class: "ask" }, "Allow this?"));
    for (const o of options) {
      const b = el("button", { "data-testid": "permission-option", "data-option-id": o.optionId, "data-kind": o.kind }, o.name.replace(/`/g, ""));
      b.addEventListener("click", () => this.send({ type: "permission", requestId, optionId: o.optionId }));
      box.append(b);
    }
  }

  /** Removes the question requestId, if this card shows it. */
  answered(requestId: string): void {
    const box = part(this.root, "tool-permission");
    if (box.dataset["requestId"] !== requestId) return;
    box.replaceChildren();
    delete box.dataset["requestId"];
  }

  private pathLink(path: string, label: string, testid: string, line?: number | null): HTMLAnchorElement {
    const a = el("a", { href: "#", class: "path", "data-testid": testid, "data-path": path }, label);
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      this.send({ type: "openPath", path, line: line ?? null });
    });
    return a;
  }

  private locations(locs: readonly { path: string; line?: number | null }[]): void {
    const paths = part(this.root, "tool-paths");
    paths.replaceChildren(...locs.map((l) => this.pathLink(l.path, l.line != null ? `${l.path}:${l.line + 1}` : l.path, "tool-card-location", l.line)));
  }

  private content(content: readonly ToolCallContent[]): void {
    const body = part(this.root, "tool-body");
    body.replaceChildren();
    for (const c of content) {
      if (c.type === "diff") {
        const diff = el("button", { "data-testid": "tool-card-diff-button", "data-path": c.path }, "Open diff");
        diff.addEventListener("click", () => this.send({ type: "openDiff", toolCallId: this.id, path: c.path }));
        const row = el("div", { class: "diff-row" });
        row.append(this.pathLink(c.path, c.path, "tool-card-path"), diff);
        body.append(row);
      } else if (c.type === "content" && c.content.type === "text") {
        const t = el("div", { class: "tool-text" });
        t.innerHTML = renderMarkdown(c.content.text);
        body.append(t);
      }
    }
  }

  private terminal(u: ToolUpdate): void {
    const term = part(this.root, "tool-terminal");
    if (meta(u, "terminal_info")) term.hidden = false;
    const out = meta(u, "terminal_output");
    if (out && typeof out["data"] === "string") {
      term.hidden = false;
      term.textContent = term.textContent + out["data"];
    }
    const exit = meta(u, "terminal_exit");
    if (exit) {
      term.hidden = false;
      const code = exit["exit_code"];
      const how = typeof exit["signal"] === "string" ? `signal ${exit["signal"]}` : `status ${typeof code === "number" ? code : "?"}`;
      term.textContent = term.textContent + `\n[exited: ${how}]`;
    }
  }
}
