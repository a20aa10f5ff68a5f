import type { Window } from "happy-dom";
import type { FromWebview } from "../../src/chat/messages";
import { Conversation } from "../../src/webview/conversation";
import { installDom } from "./dom";

/** A conversation in a fresh DOM: the window (close it after), the log it renders into, what it sent. */
export interface MountedConversation {
  readonly window: Window;
  readonly log: HTMLElement;
  readonly sent: FromWebview[];
  readonly chat: Conversation;
}

/** Mounts a conversation whose paths are shown relative to /ws. */
export function mountConversation(): MountedConversation {
  const window = installDom();
  const log = document.createElement("main");
  document.body.append(log);
  const sent: FromWebview[] = [];
  const chat = new Conversation(log, (m) => sent.push(m));
  chat.setRoot("/ws");
  return { window, log, sent, chat };
}
