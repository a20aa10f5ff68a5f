// The chat view's script: renders what the extension posts and posts back
// what the user does. All state lives in the objects created in start().
import type { FromWebview, ToWebview } from "../chat/messages";
import { tabState, type TabState } from "../chat/tabState";
import { Conversation } from "./conversation";
import { EditMode } from "./editMode";
import { ImageAttachments } from "./images";
import { MentionCompletion } from "./mentions";
import { byId } from "./dom";
import { ContextChip, showConfig, showReview, showSessions, SlashCompletion } from "./panels";
import { PendingInput } from "./pendingInput";

interface VsCodeApi {
  postMessage(m: FromWebview): void;
  /** Keeps state across a reload (a tab's: see tabState). */
  setState(state: TabState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

function start(): void {
  const api = acquireVsCodeApi();
  const send = (m: FromWebview): void => api.postMessage(m);
  const input = byId("input", HTMLTextAreaElement);
  const sendButton = byId("send", HTMLButtonElement);
  const stopButton = byId("stop", HTMLButtonElement);
  const sessions = byId("sessions", HTMLSelectElement);
  const config = byId("config", HTMLElement);
  const review = byId("review", HTMLElement);
  const busy = byId("busy", HTMLElement);
  const context = new ContextChip(byId("context", HTMLElement));
  let root: string | undefined;
  const editing = new EditMode(byId("editing", HTMLElement), input);
  const conversation = new Conversation(byId("log", HTMLElement), send, (text, point) => editing.start(text, point));
  const slash = new SlashCompletion(input, byId("completions", HTMLElement));
  const mention = new MentionCompletion(input, byId("completions", HTMLElement), send);
  // What was sent during a turn and has not reached the conversation yet.
  const pending = new PendingInput(send);
  byId("context", HTMLElement).before(pending.root);
  const idleHint = input.placeholder;
  const images = new ImageAttachments(byId("images", HTMLElement), input, (text) => conversation.notice("info", text));

  // During a turn the input stays live: Enter steers the turn, Alt+Enter queues for after it.
  const submit = (queue = false): void => {
    const text = input.value;
    if (text.trim() === "") return;
    input.value = "";
    slash.hide();
    mention.hide();
    send({ type: "prompt", text, withContext: context.active, images: images.take(), restore: editing.take(), ...(queue ? { queue } : {}) });
  };
  input.addEventListener("input", () => {
    slash.refresh();
    mention.refresh();
  });
  input.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey) {
      ev.preventDefault();
      submit(ev.altKey);
    } else if (ev.key === "Tab" && (mention.completeFirst() || slash.completeFirst())) {
      ev.preventDefault();
    }
  });
  sendButton.addEventListener("click", () => submit());
  stopButton.addEventListener("click", () => send({ type: "stop" }));
  byId("new-session", HTMLButtonElement).addEventListener("click", () => send({ type: "newSession" }));
  byId("history", HTMLButtonElement).addEventListener("click", () => send({ type: "history" }));
  byId("new-tab", HTMLButtonElement).addEventListener("click", () => send({ type: "newTab" }));
  sessions.addEventListener("change", () => {
    if (sessions.value) send({ type: "loadSession", sessionId: sessions.value });
  });

  window.addEventListener("message", (ev: MessageEvent<ToWebview>): void => {
    const m = ev.data;
    switch (m.type) {
      case "update": {
        // A steering message the agent shows where it landed.
        const steered = m.child === undefined && m.update.sessionUpdate === "user_message_chunk" && m.update.content.type === "text" && pending.landed(m.update.content.text);
        conversation.apply(m.update, m.child);
        if (steered) conversation.markSteered();
        return;
      }
      case "reset":
        // A tab's conversation comes back in it after a reload (the sidebar reopens its own last one).
        api.setState(tabState(m.sessionId));
        pending.clear();
        return conversation.clear();
      case "userPrompt":
        return conversation.user(m.text, m.context);
      case "turn":
        stopButton.disabled = !m.running;
        input.placeholder = m.running ? "dsh is working: Enter tells it now (read at its next step), Alt+Enter queues for after this turn" : idleHint;
        busy.hidden = !m.running;
        document.body.dataset["turn"] = m.running ? "running" : (m.stopReason ?? "idle");
        if (!m.running) conversation.endStreams();
        return;
      case "permission":
        return conversation.ask(m.requestId, m.toolCallId, m.title, m.options);
      case "permissionResolved":
        return conversation.answered(m.requestId);
      case "sessions":
        return showSessions(sessions, m.sessions, m.current);
      case "config":
        return showConfig(config, m.options, send);
      case "commands":
        return slash.setCommands(m.commands);
      case "review":
        return showReview(review, m.files, send, root);
      case "reviewed":
        if (m.action === "reject") for (const p of m.paths) conversation.rejected(p);
        return;
      case "mentions":
        return mention.show(m.query, m.items);
      case "editorContext":
        return context.offer(m.label);
      case "truncate":
        return conversation.truncate(m.index);
      case "turnCost":
        return conversation.turnCost(m.text);
      case "apiKey":
        return conversation.setKeyStored(m.stored);
      case "workspace":
        root = m.root;
        return conversation.setRoot(m.root);
      case "notice":
        return conversation.notice(m.level, m.text, m.action);
      case "steer":
        return m.state === "sending" ? pending.steer(m.text) : pending.dropped(m.text);
      case "queue":
        return pending.queue(m.items);
    }
  });
  send({ type: "ready" });
}

start();
