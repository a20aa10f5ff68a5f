import type { AvailableCommand, SessionConfigOption, SessionInfo } from "@agentclientprotocol/sdk";
import type { FromWebview, ReviewRow } from "../chat/messages";
import { el } from "./dom";

type Send = (m: FromWebview) => void;

/** Fills the session list; the current session is selected. */
export function showSessions(select: HTMLSelectElement, sessions: readonly SessionInfo[], current: string | undefined): void {
  select.replaceChildren(el("option", { value: "" }, current ? "Current session" : "Sessions…"));
  for (const s of sessions) {
    const o = el("option", { value: s.sessionId }, s.title ?? s.sessionId);
    if (s.sessionId === current) o.selected = true;
    select.append(o);
  }
}

/** One dropdown per select-type config option (model, permissions, effort). */
export function showConfig(box: HTMLElement, options: readonly SessionConfigOption[], send: Send): void {
  box.replaceChildren();
  for (const opt of options) {
    if (opt.type !== "select") continue;
    const select = el("select", { "data-testid": `config-${opt.id}`, title: opt.name });
    for (const item of opt.options) {
      if ("group" in item) {
        const g = el("optgroup", { label: item.name });
        for (const o of item.options) g.append(el("option", { value: o.value }, o.name));
        select.append(g);
      } else {
        select.append(el("option", { value: item.value }, item.name));
      }
    }
    select.value = opt.currentValue;
    select.addEventListener("change", () => send({ type: "setConfig", configId: opt.id, value: select.value }));
    box.append(select);
  }
}

/** The review list: per file Diff / Accept / Reject, and all at once; hidden when empty. */
export function showReview(box: HTMLElement, files: readonly ReviewRow[], send: Send): void {
  box.hidden = files.length === 0;
  box.replaceChildren(el("div", { class: "review-title" }, `Changes to review (${files.length})`));
  for (const f of files) {
    const row = el("div", { class: "review-row", "data-testid": "review-file", "data-path": f.path });
    row.append(el("span", { class: "path" }, f.created ? `${f.path} (new)` : f.path));
    for (const [action, label] of [["diff", "Diff"], ["accept", "Accept"], ["reject", "Reject"]] as const) {
      const b = el("button", { "data-testid": `review-${action}` }, label);
      b.addEventListener("click", () => send({ type: "review", action, path: f.path }));
      row.append(b);
    }
    box.append(row);
  }
  if (files.length === 0) return;
  const all = el("div", { class: "review-all" });
  for (const [action, label] of [["accept", "Accept all"], ["reject", "Reject all"]] as const) {
    const b = el("button", { "data-testid": `review-${action}-all` }, label);
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
