import type { PermissionOption } from "@agentclientprotocol/sdk";
import { splitEditorNote } from "../chat/editorNote";
import { promptContextLabel, splitPromptContext } from "../chat/promptContext";
import { steeredChunk } from "../chat/steered";
import type { FromWebview, NoticeAction } from "../chat/messages";
import type { AgentUpdate } from "../client/unstable";
import { linkedChild } from "../session/childCalls";
import { imagesLabel } from "../session/images";
import { Compactions } from "./compaction";
import { el } from "./dom";
import { LogEnd } from "./logEnd";
import { noticeLine } from "./notices";
import { relativePath } from "./paths";
import { Plans } from "./plans";
import { Stream } from "./stream";
import { SubagentBlock } from "./subagent";
import { ToolCard } from "./toolCard";

/** A message the user sent, as the log holds it. */
interface UserMessage {
  readonly el: HTMLElement;
  readonly textEl: HTMLElement;
  readonly editEl: HTMLElement;
  readonly actionsEl: HTMLElement;
  text: string;
  /** The labels of the context it carried, in order. */
  contexts: string[];
  /** How many images it carried (labelled after the contexts, "1 image"). */
  images: number;
}

/** Where "restore to here" goes: the message's index among the user's messages, and its text and every later one's. */
export interface RestorePoint {
  readonly index: number;
  readonly texts: readonly string[];
}

/** The empty view's hint: what dsh does, how to start, and the sign-in. */
function welcome(send: (m: FromWebview) => void, keyStored: boolean): HTMLElement {
  const box = el("div", { class: "welcome", "data-testid": "welcome" });
  box.append(
    el("p", { class: "welcome-title" }, "Ask dsh about this workspace, or ask it to change it."),
    el("p", {}, "It reads and edits files and runs commands, asking before anything risky; you review every change. Type / for commands."),
  );
  // A key in VS Code's secret storage is told as set; without one, dsh may still have one from its environment or its own sign-in.
  const p = keyStored
    ? el("p", { "data-testid": "welcome-key-stored" }, "Your API key is set (in VS Code's secret storage). ")
    : el("p", {}, "dsh needs an API key from your model provider (if dsh already has one, just ask). ");
  const signIn = el("button", { class: "secondary", "data-testid": "welcome-sign-in" }, keyStored ? "Change API key" : "Set API key");
  signIn.addEventListener("click", () => send({ type: "signIn" }));
  p.append(signIn);
  box.append(p);
  return box;
}

/**
 * The conversation log: prompts, streamed answers (Markdown, re-rendered
 * as chunks arrive), thoughts (open while they stream, folded after), the
 * plan, and one card per tool call. A subagent shows as a block of its
 * own (SubagentBlock) inside the card of the task that started it, with
 * the child's answer, thoughts and cards. Empty, it shows the welcome hint.
 * The editor's rejection notes are not the user's words: replayed, they
 * mark the rejected edits' cards instead.
 */
export class Conversation {
  private readonly log: HTMLElement;
  private readonly send: (m: FromWebview) => void;
  private readonly cards = new Map<string, ToolCard>();
  private readonly compactions = new Compactions();
  // Whether VS Code's secret storage holds the API key (the welcome says so).
  private keyStored = false;
  private readonly stream: Stream;
  private readonly subagents = new Map<string, SubagentBlock>();
  private user_: UserMessage | undefined;
  // The user's messages, in order (a restore names one by its index here).
  private users: UserMessage[] = [];
  private readonly edit: (text: string, point: RestorePoint) => void;
  private readonly plans: Plans;
  // The cards since the last prompt, and those of the turn before it (a
  // rejection note is about the turn before the prompt it comes with).
  private turnCards: ToolCard[] = [];
  private lastTurnCards: ToolCard[] = [];
  private root: string | undefined;
  private readonly end: LogEnd;

  /** edit is called with the last message's text when the user chooses to edit and resend it. */
  constructor(log: HTMLElement, send: (m: FromWebview) => void, edit: (text: string, point: RestorePoint) => void = () => undefined) {
    this.log = log;
    this.send = send;
    this.edit = edit;
    this.end = new LogEnd(log, (run) => window.requestAnimationFrame(run));
    this.stream = new Stream(log, () => this.hideWelcome());
    this.plans = new Plans((block) => {
      this.hideWelcome();
      this.log.append(block);
    });
    this.log.addEventListener("click", (ev) => this.clicked(ev));
    this.clear();
  }

  /** Sets the workspace folder paths are shown relative to. */
  setRoot(root: string | undefined): void {
    this.root = root;
  }

  /** Applies one session update; one of child's (a subagent session) in that child's block. */
  apply(u: AgentUpdate, child?: string): void {
    if (child !== undefined) {
      this.applyChild(u, child);
      this.scroll();
      return;
    }
    switch (u.sessionUpdate) {
      case "subagent_update":
        this.announce(u, undefined);
        break;
      case "agent_message_chunk":
        if (u.content.type === "text") this.appendMessage(u.content.text);
        break;
      case "agent_thought_chunk":
        if (u.content.type === "text") this.appendThought(u.content.text);
        break;
      case "user_message_chunk":
        if (u.content.type === "text") this.userChunk(u.content.text);
        else if (u.content.type === "image") this.userImage();
        // Replayed, a message sent during its turn shows so, as it did live.
        if (steeredChunk(u)) this.markSteered();
        break;
      case "plan":
        this.plans.show(u.entries);
        break;
      case "plan_update":
        this.plans.update(u);
        break;
      case "plan_removed":
        this.plans.remove(u);
        break;
      case "tool_call":
      case "tool_call_update":
        this.card(u.toolCallId).apply(u);
        this.link(u);
        break;
      case "notice":
        this.place(noticeLine(u));
        break;
      case "compaction_update":
      case "compaction_summary_chunk": {
        const card = this.compactions.apply(u);
        if (card) this.place(card);
        break;
      }
      default:
        return;
    }
    this.scroll();
  }

  // A subagent's update: its answer, thoughts and cards go in its block;
  // what else a child says (its usage, its own plan) is not shown.
  private applyChild(u: AgentUpdate, child: string): void {
    const block = this.subagents.get(child);
    if (!block) return; // never announced
    switch (u.sessionUpdate) {
      case "subagent_update":
        this.announce(u, block);
        return;
      case "agent_message_chunk":
        if (u.content.type === "text") block.stream.message(u.content.text);
        return;
      case "agent_thought_chunk":
        if (u.content.type === "text") block.stream.thought(u.content.text);
        return;
      case "tool_call":
      case "tool_call_update":
        this.card(u.toolCallId, block).apply(u);
        this.link(u);
        return;
      default:
        return;
    }
  }

  // A subagent_update: the first one for a child opens its block (in the
  // log, or in the block of the child that started it, until the task's
  // card is linked to it); later ones change its title and state.
  private announce(u: Extract<AgentUpdate, { sessionUpdate: "subagent_update" }>, parent: SubagentBlock | undefined): void {
    let block = this.subagents.get(u.sessionId);
    if (!block) {
      block = new SubagentBlock(u.sessionId, this.send);
      this.subagents.set(u.sessionId, block);
      if (parent) parent.place(block.root);
      else this.place(block.root);
    }
    block.announce(u);
  }

  // A task's card linked to its child (_meta.subagent_session_id) holds the child's block.
  private link(u: AgentUpdate): void {
    const child = linkedChild(u);
    const block = child === undefined ? undefined : this.subagents.get(child);
    if (block && (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update")) this.cards.get(u.toolCallId)?.hold(block.root);
  }

  /** Shows a prompt the user sent, with the context it carried. */
  user(text: string, context?: string): void {
    this.startTurn();
    this.appendUser(text);
    if (context) this.appendContext(context);
    this.endStreams();
    this.scroll(true);
  }

  // Labels the user's message being shown with context (after any context it has, before its images).
  private appendContext(context: string): void {
    if (!this.user_) return;
    this.user_.contexts.push(context);
    this.label(this.user_);
  }

  // A message's label: its contexts, then how many images it carried ("1 image"), as a live prompt's.
  private label(message: UserMessage): void {
    const text = [...message.contexts, imagesLabel(message.images) ?? ""].filter((s) => s !== "").join(", ");
    const shown = message.el.querySelector(".user-context");
    if (shown) shown.textContent = text;
    else message.textEl.after(el("div", { class: "user-context", "data-testid": "message-context" }, text));
  }

  /** Marks the user's message just shown as sent during the turn (steering). */
  markSteered(): void {
    if (!this.user_) return;
    this.user_.el.classList.add("steered");
    this.user_.el.dataset["steered"] = "true";
    this.user_.el.title = "Sent while dsh was working; it read this at its next step";
  }

  /** Marks the cards that changed path in the turn before the last prompt, or in this one, as rejected. */
  rejected(path: string): void {
    for (const c of [...this.lastTurnCards, ...this.turnCards]) if (c.changedPaths.includes(path)) c.markRejected();
  }

  /** Shows an approval question on its call's card. */
  ask(requestId: string, toolCallId: string, title: string, options: readonly PermissionOption[]): void {
    this.card(toolCallId).ask(requestId, title, options);
    this.scroll();
  }

  /** Removes an answered approval question. */
  answered(requestId: string): void {
    for (const c of this.cards.values()) c.answered(requestId);
  }

  /** Shows what the request just answered cost. */
  turnCost(text: string): void {
    this.log.append(el("div", { class: "turn-cost", "data-testid": "turn-cost", title: "What this request cost (the session's total is in the status bar)" }, `This request: ${text}`));
    this.scroll();
  }

  /** Shows an info or error line, with its action's button. */
  notice(level: string, text: string, action?: NoticeAction): void {
    this.hideWelcome();
    const line = el("div", { class: `notice ${level}`, "data-testid": "notice" }, text);
    if (action === "signIn") {
      const b = el("button", { class: "secondary", "data-testid": "notice-sign-in" }, "Set API key");
      b.addEventListener("click", () => this.send({ type: "signIn" }));
      line.append(" ", b);
    }
    this.log.append(line);
    this.scroll();
  }

  /** Ends the streamed blocks (the next chunk starts a new one); a thought is folded. */
  endStreams(): void {
    this.stream.end();
    this.user_ = undefined;
  }

  /** Notes whether the API key is stored; a welcome on show is redrawn. */
  setKeyStored(stored: boolean): void {
    this.keyStored = stored;
    const shown = this.log.querySelector(".welcome");
    if (shown) shown.replaceWith(welcome(this.send, stored));
  }

  /** Empties the log (another session) and shows the welcome hint. */
  clear(): void {
    this.log.replaceChildren(welcome(this.send, this.keyStored));
    this.cards.clear();
    this.subagents.clear();
    this.compactions.clear();
    this.users = [];
    this.turnCards = [];
    this.lastTurnCards = [];
    this.endStreams();
    this.plans.clear();
    // A conversation shown anew (new, or loaded) follows its end.
    this.scroll(true);
  }

  private startTurn(): void {
    this.endStreams();
    this.plans.newTurn();
    this.lastTurnCards = this.turnCards;
    this.turnCards = [];
  }

  // A replayed prompt comes as chunks (one per text block); a rejection
  // note among them, or at the start of one, marks the cards it names
  // rather than showing, and the user's words after it show as theirs.
  // The context the prompt carried (flattened into its text by dsh-acp)
  // shows as its label, as it did live.
  private userChunk(chunk: string): void {
    const { own: said, contexts } = splitPromptContext(chunk);
    const label = contexts.map((c) => promptContextLabel(c, (p) => relativePath(p, this.root))).join(", ");
    const { note, own: text } = splitEditorNote(said);
    if (note) {
      this.startTurn();
      for (const p of note.rejected) this.rejected(p);
      const names = (paths: readonly string[]) => paths.map((p) => relativePath(p, this.root)).join(", ");
      const said = [note.rejected.length ? `You rejected ${names(note.rejected)}` : "", note.undone.length ? `You undid parts of ${names(note.undone)}` : ""];
      this.log.append(el("div", { class: "review-note", "data-testid": "review-note" }, `${said.filter((s) => s).join("; ")} in the review; the agent was told.`));
      this.user_ = undefined;
      if (text === "" && label === "") return;
    }
    if (!this.user_) this.startTurn();
    this.appendUser(text);
    if (label) this.appendContext(label);
  }

  // A replayed prompt's image (or a steered message's, live): counted in
  // its message's label, as the live bubble names it; an image alone
  // starts a message.
  private userImage(): void {
    if (!this.user_) this.startTurn();
    this.appendUser("");
    if (!this.user_) return;
    this.user_.images++;
    this.label(this.user_);
  }

  /**
   * Drops the user message at index and everything after it (the
   * conversation was restored to before it).
   */
  truncate(index: number): void {
    const from = this.users[index];
    if (!from) return;
    while (from.el.nextSibling) from.el.nextSibling.remove();
    from.el.remove();
    this.users = this.users.slice(0, index);
    for (const [id, c] of this.cards) if (!c.root.isConnected) this.cards.delete(id);
    for (const [id, b] of this.subagents) if (!b.root.isConnected) this.subagents.delete(id);
    this.turnCards = [];
    this.lastTurnCards = [];
    this.endStreams();
    this.plans.newTurn();
    this.markLast();
    if (this.log.childElementCount === 0) this.log.replaceChildren(welcome(this.send, this.keyStored));
  }

  // The restore point of the user message at index: it and every later prompt.
  private point(index: number): RestorePoint {
    return { index, texts: this.users.slice(index).map((u) => u.text) };
  }

  private newUserMessage(): UserMessage {
    this.hideWelcome();
    const e = el("div", { class: "message user", "data-testid": "message-user" });
    const text = el("div", { class: "user-text" });
    const actions = el("div", { class: "user-actions" });
    const restore = el("button", { class: "icon", "data-testid": "restore-here", title: "Restore the workspace and the conversation to before this message (/undo turn by turn)" }, "↺ Restore to here");
    const edit = el("button", { class: "icon", "data-testid": "edit-last", title: "Edit this message and send it again (its turn is undone first)" }, "✎ Edit");
    const message: UserMessage = { el: e, textEl: text, editEl: edit, actionsEl: actions, text: "", contexts: [], images: 0 };
    restore.addEventListener("click", () => {
      const i = this.users.indexOf(message);
      if (i >= 0) this.send({ type: "restore", ...this.point(i) });
    });
    edit.addEventListener("click", () => {
      const i = this.users.indexOf(message);
      if (i >= 0) this.edit(message.text, this.point(i));
    });
    actions.append(restore, edit);
    e.append(text, actions);
    this.log.append(e);
    this.users.push(message);
    this.markLast();
    return message;
  }

  // Only the last message offers Edit (edit and resend is of the last prompt).
  private markLast(): void {
    this.users.forEach((u, i) => (u.editEl.hidden = i !== this.users.length - 1));
  }

  private appendUser(text: string): void {
    if (!this.user_?.el.isConnected) this.user_ = this.newUserMessage();
    this.user_.text += text;
    this.user_.textEl.textContent = this.user_.text;
    // A slash command (an /undo a restore sent, say) is not a message to go back to or edit.
    this.user_.actionsEl.hidden = this.user_.text.trimStart().startsWith("/");
  }

  // Puts a block of its own (a notice, a compaction) at the end of the log: the streamed blocks before it end.
  private place(block: HTMLElement): void {
    this.endStreams();
    this.hideWelcome();
    this.log.append(block);
  }

  private hideWelcome(): void {
    this.log.querySelector(".welcome")?.remove();
  }

  // The card of call id, new ones at the end of the log or of the subagent's block.
  private card(id: string, block?: SubagentBlock): ToolCard {
    let c = this.cards.get(id);
    if (!c) {
      c = new ToolCard(id, this.send, () => this.root);
      this.cards.set(id, c);
      this.turnCards.push(c);
      if (block) block.place(c.root);
      else this.place(c.root);
    }
    return c;
  }

  private appendMessage(text: string): void {
    this.user_ = undefined;
    this.stream.message(text);
  }

  private appendThought(text: string): void {
    this.user_ = undefined;
    this.stream.thought(text);
  }

  // Links open through the extension (never in the webview); Copy copies
  // its code block, Insert puts it in the editor at the cursor.
  private clicked(ev: MouseEvent): void {
    const target = ev.target;
    if (!(target instanceof Element)) return;
    const button = target.closest(".code-copy, .code-insert");
    if (button) {
      const text = button.closest(".code-block")?.querySelector("pre > code")?.textContent ?? "";
      if (button.classList.contains("code-insert")) {
        this.send({ type: "insert", text });
        return;
      }
      this.send({ type: "copy", text });
      button.textContent = "Copied";
      return;
    }
    const link = target.closest("a[href]");
    if (link && !link.classList.contains("path")) {
      ev.preventDefault();
      const href = link.getAttribute("href") ?? "";
      if (href && href !== "#") this.send({ type: "openLink", href });
    }
  }

  // Keeps the log at its end while the user reads there (their own prompt always shows).
  private scroll(jump = false): void {
    this.end.follow(jump);
  }
}
