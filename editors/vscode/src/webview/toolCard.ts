import type { PermissionOption, SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import { isStopped } from "../chat/callMeta";
import type { FromWebview } from "../chat/messages";
import { el, part } from "./dom";
import { LogEnd } from "./logEnd";
import { renderMarkdown } from "./markdown";
import { relativePath, relativeText } from "./paths";
import { outputHtml } from "./toolOutput";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;
type Send = (m: FromWebview) => void;

function meta(u: ToolUpdate, key: string): Record<string, unknown> | undefined {
  const v = u._meta?.[key];
  return v !== null && typeof v === "object" ? (v as Record<string, unknown>) : undefined;
}

/** What a card's status shows beside its title. */
const STATUS_TEXT: Readonly<Record<string, string>> = {
  pending: "pending",
  in_progress: "running",
  completed: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/**
 * The kinds of call whose text is prose to read as Markdown: a plan
 * review's plan (switch_mode), a question, a summary (think). Every other
 * call's text is its output, shown as it is.
 */
const PROSE_KINDS: ReadonlySet<string> = new Set(["switch_mode", "think"]);

/**
 * Whether a card's text is one of the agent's notes to the model about
 * its language servers (none installed, one still loading) rather than
 * something they found: those stay off the card.
 */
export function isLanguageServerNote(text: string): boolean {
  return /^\s*Note: [^\n]*\blanguage server/i.test(text) && !/\berror/i.test(text);
}

/** Whether a failed call's text is the agent saying the user refused it (the approval was answered "reject"). */
export function isRefusal(text: string): boolean {
  return text.includes('did not run: the permission request was answered "reject"');
}

/**
 * How a terminal_exit meta reads at the end of the output, and whether
 * the command failed; a command the turn's cancel stopped (stopped) says
 * so, with the signal that ended it when there was one.
 */
export function exitText(exit: Record<string, unknown>, stopped = false): { readonly line: string; readonly failed: boolean } {
  const code = exit["exit_code"];
  const signal = typeof exit["signal"] === "string" ? exit["signal"] : undefined;
  if (stopped) return { line: signal === undefined ? "[cancelled]" : `[cancelled, ended by signal ${signal}]`, failed: true };
  if (signal !== undefined) return { line: `[ended by signal ${signal}]`, failed: true };
  if (typeof code === "number") return { line: `[exit code ${code}]`, failed: code !== 0 };
  return { line: "[ended]", failed: false };
}

/**
 * One tool call's card: status and title (paths in it relative to the
 * workspace), each path it touches once (click to open; "Open diff" for
 * a changed one), its text content (a tool's output as it is, prose as
 * Markdown), its command output with the exit, and the inline approval
 * buttons while the agent asks.
 */
export class ToolCard {
  /** The card's root element. */
  readonly root: HTMLElement;
  private readonly id: string;
  private readonly send: Send;
  private readonly root_: () => string | undefined;
  private locations_: readonly { path: string; line?: number | null }[] = [];
  private diffPaths: readonly string[] = [];
  private exitFailed = false;
  private contents: readonly ToolCallContent[] = [];
  // Whether the card holds a subagent's block: its text is the subagent's answer.
  private holdsSubagent = false;
  // Keeps the command's output at its newest line while the user reads there.
  private terminalEnd: LogEnd | undefined;

  /** root gives the workspace folder paths are shown relative to. */
  constructor(id: string, send: Send, root: () => string | undefined) {
    this.id = id;
    this.send = send;
    this.root_ = root;
    this.root = el("div", { class: "tool-card", "data-testid": "tool-card", "data-tool-call-id": id });
    const head = el("div", { class: "tool-head" });
    head.append(el("span", { class: "tool-status", "data-testid": "tool-card-status" }), el("span", { class: "tool-title" }));
    this.root.append(
      head,
      el("div", { class: "tool-paths" }),
      el("div", { class: "tool-body" }),
      el("pre", { class: "tool-terminal", "data-testid": "tool-terminal", hidden: "" }),
      el("div", { class: "tool-permission" }),
    );
  }

  /** The paths of the files this card changes (its diffs). */
  get changedPaths(): readonly string[] {
    return this.diffPaths;
  }

  /** Applies a tool_call or tool_call_update. */
  apply(u: ToolUpdate): void {
    if (u.title != null) part(this.root, "tool-title").textContent = relativeText(u.title, this.root_());
    const kindChanged = u.kind != null && u.kind !== this.root.dataset["kind"];
    if (u.kind != null) this.root.dataset["kind"] = u.kind;
    if (u.locations != null) this.locations_ = u.locations;
    if (u.content != null || kindChanged) this.content(u.content ?? this.contents);
    if (u.locations != null || u.content != null) this.paths();
    this.terminal(u);
    if (u.status != null) this.status(u.status === "failed" && isStopped(u._meta) ? "cancelled" : u.status);
  }

  /** Holds block (the block of the subagent this call started) below the card's text; once. The card's text is then the subagent's answer, read as Markdown. */
  hold(block: HTMLElement): void {
    if (block.parentElement !== this.root) this.root.insertBefore(block, part(this.root, "tool-permission"));
    if (this.holdsSubagent) return;
    this.holdsSubagent = true;
    this.content(this.contents);
  }

  /** Marks the card as rejected by the user: its approval refused, or its change rejected in the review (live, or read back from a replayed note). */
  markRejected(): void {
    this.root.dataset["review"] = "rejected";
    part(this.root, "tool-status").textContent = "rejected";
  }

  /** Shows the approval question with the agent's options. */
  ask(requestId: string, title: string, options: readonly PermissionOption[]): void {
    const t = part(this.root, "tool-title");
    if (title && !t.textContent) t.textContent = relativeText(title, this.root_());
    const box = part(this.root, "tool-permission");
    box.dataset["requestId"] = requestId;
    box.replaceChildren(el("span", { class: "ask" }, "Allow this?"));
    // One main action, as VS Code's own prompt has: Allow once (else the first allow); the rest are secondary.
    const main = options.find((o) => o.kind === "allow_once") ?? options.find((o) => o.kind.startsWith("allow"));
    for (const o of options) {
      const cls = o === main ? "primary" : "secondary";
      const label = o.name.replace(/`/g, "");
      const b = el("button", { class: cls, "data-testid": "permission-option", "data-option-id": o.optionId, "data-kind": o.kind, title: label }, label);
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

  private status(status: string): void {
    // A command that exited non-zero failed, whatever the status said.
    const shown = this.exitFailed && status === "completed" ? "failed" : status;
    this.root.dataset["status"] = shown;
    if (this.root.dataset["review"] === "rejected") return;
    part(this.root, "tool-status").textContent = STATUS_TEXT[shown] ?? shown;
  }

  private pathLink(path: string, line: number | null | undefined, testid: string): HTMLAnchorElement {
    const rel = relativePath(path, this.root_());
    const label = line != null ? `${rel}:${line + 1}` : rel;
    const a = el("a", { href: "#", class: "path", "data-testid": testid, "data-path": path, title: path }, label);
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      this.send({ type: "openPath", path, line: line ?? null });
    });
    return a;
  }

  // Each path once: a changed file with its "Open diff", then the other
  // locations (the line of the first one for a changed file).
  private paths(): void {
    const row = part(this.root, "tool-paths");
    row.replaceChildren();
    const lineOf = (p: string) => this.locations_.find((l) => l.path === p)?.line;
    for (const p of this.diffPaths) {
      const item = el("span", { class: "diff-row" });
      const diff = el("button", { class: "secondary", "data-testid": "tool-card-diff-button", "data-path": p }, "Open diff");
      diff.addEventListener("click", () => this.send({ type: "openDiff", toolCallId: this.id, path: p }));
      item.append(this.pathLink(p, lineOf(p), "tool-card-path"), diff);
      row.append(item);
    }
    const seen = new Set(this.diffPaths);
    for (const l of this.locations_) {
      if (seen.has(l.path)) continue;
      seen.add(l.path);
      row.append(this.pathLink(l.path, l.line, "tool-card-location"));
    }
  }

  // Whether the card's text is prose (Markdown) rather than output (see PROSE_KINDS).
  private prose(): boolean {
    return this.holdsSubagent || PROSE_KINDS.has(this.root.dataset["kind"] ?? "");
  }

  private content(content: readonly ToolCallContent[]): void {
    this.contents = content;
    const body = part(this.root, "tool-body");
    body.replaceChildren();
    const root = this.root_();
    const paths: string[] = [];
    for (const c of content) {
      if (c.type === "diff") {
        if (!paths.includes(c.path)) paths.push(c.path);
      } else if (c.type === "content" && c.content.type === "text" && isRefusal(c.content.text)) {
        this.markRejected();
      } else if (c.type === "content" && c.content.type === "text" && !isLanguageServerNote(c.content.text)) {
        const t = el("div", { class: "tool-text" });
        t.innerHTML = this.prose() ? renderMarkdown(relativeText(c.content.text, root)) : outputHtml(c.content.text, root);
        body.append(t);
      }
    }
    this.diffPaths = paths;
  }

  private terminal(u: ToolUpdate): void {
    const term = part(this.root, "tool-terminal");
    if (meta(u, "terminal_info")) term.hidden = false;
    const out = meta(u, "terminal_output");
    if (out && typeof out["data"] === "string") {
      term.hidden = false;
      term.textContent = term.textContent + out["data"];
      (this.terminalEnd ??= new LogEnd(term, (run) => window.requestAnimationFrame(run))).follow();
    }
    const exit = meta(u, "terminal_exit");
    if (exit) {
      term.hidden = false;
      const { line, failed } = exitText(exit, u.status === "failed" && isStopped(u._meta));
      this.exitFailed = failed;
      term.textContent = `${term.textContent}${term.textContent.endsWith("\n") || term.textContent === "" ? "" : "\n"}${line}`;
      this.terminalEnd?.follow();
      term.dataset["exit"] = failed ? "failed" : "ok";
    }
  }
}
