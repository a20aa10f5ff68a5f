import type { AvailableCommand, SessionConfigOption, SessionConfigSelectOption, SessionInfo } from "@agentclientprotocol/sdk";
import { lastUsedFormat, lastUsedText } from "../chat/lastUsed";
import type { FromWebview, ReviewRow } from "../chat/messages";
import { el } from "./dom";
import { relativePath } from "./paths";

type Send = (m: FromWebview) => void;

/** The longest title a session's entry shows before "…" (the full title is its tooltip). */
const TITLE_CHARS = 48;

/** A session's entry: its title (shortened) and when it was last used, written by when. */
export function sessionLabel(s: Pick<SessionInfo, "sessionId" | "title" | "updatedAt">, when: Intl.DateTimeFormat = lastUsedFormat()): string {
  const title = (s.title ?? "").trim() || "Untitled conversation";
  const short = title.length > TITLE_CHARS ? `${title.slice(0, TITLE_CHARS - 1).trimEnd()}…` : title;
  const used = lastUsedText(s.updatedAt, when);
  return used === "" ? short : `${short} · ${used}`;
}

/**
 * Fills the session list, newest first; the current session is selected,
 * listed even when the agent has not stored it yet (no prompt so far).
 */
export function showSessions(select: HTMLSelectElement, sessions: readonly SessionInfo[], current: string | undefined): void {
  select.replaceChildren(el("option", { value: "" }, "Conversations…"));
  if (current && !sessions.some((s) => s.sessionId === current)) {
    const o = el("option", { value: current }, "New conversation (current)");
    o.selected = true;
    select.append(o);
  }
  const newest = [...sessions].sort((a, b) => (b.updatedAt ?? "").localeCompare(a.updatedAt ?? ""));
  const when = lastUsedFormat();
  for (const s of newest) {
    const o = el("option", { value: s.sessionId, title: s.title ?? s.sessionId }, sessionLabel(s, when));
    if (s.sessionId === current) o.selected = true;
    select.append(o);
  }
  const selected = select.selectedOptions[0]?.title ?? "";
  select.title = selected === "" ? "Conversations" : selected;
}

/** A value of a config option as a dropdown entry: its name, and its description (dsh's "text only · 1M-token context") as the tooltip. */
function configValue(o: SessionConfigSelectOption): HTMLOptionElement {
  return el("option", o.description ? { value: o.value, title: o.description } : { value: o.value }, o.name);
}

/** One labelled dropdown per select-type config option (model, permissions, effort); its tooltip describes the current value when the agent does. */
export function showConfig(box: HTMLElement, options: readonly SessionConfigOption[], send: Send): void {
  box.replaceChildren();
  for (const opt of options) {
    if (opt.type !== "select") continue;
    const label = el("label", { class: "picker" });
    const select = el("select", { "data-testid": `config-${opt.id}` });
    for (const item of opt.options) {
      if ("group" in item) {
        const g = el("optgroup", { label: item.name });
        for (const o of item.options) g.append(configValue(o));
        select.append(g);
      } else {
        select.append(configValue(item));
      }
    }
    select.value = opt.currentValue;
    const current = select.selectedOptions[0];
    select.title = current?.title ? `${current.textContent}: ${current.title}` : (opt.description ?? opt.name);
    select.addEventListener("change", () => send({ type: "setConfig", configId: opt.id, value: select.value }));
    label.append(el("span", { class: "picker-label" }, opt.name), select);
    box.append(label);
  }
}

/** The heading over the rows of an earlier conversation's changes (title: its title, "" when unknown). */
export function earlierHeading(title: string): string {
  return title === "" ? "From an earlier conversation" : `From “${title}”`;
}

/**
 * The review list: per file Diff / Keep / Undo, and all at once (the
 * words of the edited files' own Keep / Undo); hidden when empty. Keep
 * all is the main action (VS Code's primary button), the others
 * secondary. Rows of an earlier conversation's changes come under its
 * heading. A long name is cut short, never its "(new)" or its counts.
 */
export function showReview(box: HTMLElement, files: readonly ReviewRow[], send: Send, root?: string): void {
  box.hidden = files.length === 0;
  box.replaceChildren(el("div", { class: "review-title" }, `Changes to review (${files.length})`));
  let group: string | undefined;
  for (const f of files) {
    if (f.conversation !== undefined && f.conversation !== group) box.append(el("div", { class: "review-group", "data-testid": "review-group" }, earlierHeading(f.conversation)));
    group = f.conversation;
    const row = el("div", { class: "review-row", "data-testid": "review-file", "data-path": f.path });
    const rel = relativePath(f.path, root);
    row.append(el("span", { class: "path", title: f.path }, rel));
    if (f.created) row.append(el("span", { class: "created", "data-testid": "review-created" }, "(new)"));
    const counts = el("span", { class: "counts", "data-testid": "review-counts" });
    counts.append(el("span", { class: "added" }, `+${f.added}`), " ", el("span", { class: "removed" }, `−${f.removed}`));
    row.append(counts);
    for (const [action, label, tip] of [
      ["diff", "Diff", "Open the file before and after dsh's change"],
      ["accept", "Keep", "Keep dsh's change to this file"],
      ["reject", "Undo", "Put this file back as it was before dsh changed it"],
    ] as const) {
      const b = el("button", { class: "secondary", "data-testid": `review-${action}`, title: tip }, label);
      b.addEventListener("click", () => send({ type: "review", action, path: f.path }));
      row.append(b);
    }
    box.append(row);
  }
  if (files.length === 0) return;
  const all = el("div", { class: "review-all" });
  for (const [action, label] of [["view", "View all changes"], ["accept", "Keep all"], ["reject", "Undo all"]] as const) {
    const b = el("button", action === "accept" ? { "data-testid": `review-${action}-all` } : { class: "secondary", "data-testid": `review-${action}-all` }, label);
    b.addEventListener("click", () => send({ type: "reviewAll", action }));
    all.append(b);
  }
  box.append(all);
}

/**
 * Slash-command completion: while the input holds "/prefix", the agent's
 * commands starting with prefix are listed; clicking one (or Tab) puts it
 * in the input.
 */
export class SlashCompletion {
  private commands: readonly AvailableCommand[] = [];
  private readonly input: HTMLTextAreaElement;
  private readonly box: HTMLElement;

  constructor(input: HTMLTextAreaElement, box: HTMLElement) {
    this.input = input;
    this.box = box;
  }

  /** Replaces the known commands (available_commands_update). */
  setCommands(commands: readonly AvailableCommand[]): void {
    this.commands = commands;
    this.refresh();
  }

  /** Recomputes the list for the input's text. */
  refresh(): void {
    const m = /^\/(\S*)$/.exec(this.input.value);
    const matches = m ? this.commands.filter((c) => c.name.startsWith(m[1] ?? "")) : [];
    this.box.hidden = matches.length === 0;
    this.box.replaceChildren();
    for (const c of matches) {
      const item = el("div", { class: "completion", "data-testid": "slash-completion", "data-command": c.name });
      item.append(el("strong", {}, `/${c.name}`), el("span", {}, ` ${c.description}`));
      item.addEventListener("click", () => {
        this.input.value = `/${c.name} `;
        this.hide();
        this.input.focus();
      });
      this.box.append(item);
    }
  }

  /** Completes with the first match; returns whether there was one. */
  completeFirst(): boolean {
    if (this.box.hidden) return false;
    const first = this.box.querySelector<HTMLElement>(".completion");
    first?.click();
    return first !== null;
  }

  /** Hides the list. */
  hide(): void {
    this.box.hidden = true;
  }
}

/**
 * The context offered with the next prompt (the active editor's file and
 * selection), shown above the input; × leaves it out until the editor
 * offers another.
 */
export class ContextChip {
  private readonly box: HTMLElement;
  private label: string | undefined;
  private removed = false;

  constructor(box: HTMLElement) {
    this.box = box;
    box.querySelector(".context-remove")?.addEventListener("click", () => {
      this.removed = true;
      this.render();
    });
  }

  /** The editor offers label (undefined: nothing). */
  offer(label: string | undefined): void {
    if (label !== this.label) this.removed = false;
    this.label = label;
    this.render();
  }

  /** Whether the next prompt is sent with the context. */
  get active(): boolean {
    return this.label !== undefined && !this.removed;
  }

  private render(): void {
    this.box.hidden = !this.active;
    const text = this.box.querySelector(".context-label");
    if (text) text.textContent = this.label ?? "";
  }
}
