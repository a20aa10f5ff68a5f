// What a conversation in an editor tab keeps across a window reload: the
// webview stores it with setState when its session changes, and VS Code
// hands it back to the panel serializer. Pure: the extension and the
// chat view's script both use it.

/** A tab's kept state: the session it shows (none yet: a new conversation). */
export interface TabState {
  readonly sessionId?: string;
}

/** The state the view keeps for sessionId. */
export function tabState(sessionId: string | undefined): TabState {
  return sessionId === undefined ? {} : { sessionId };
}

/** The session a restored tab showed, read defensively from the state VS Code kept (undefined: none). */
export function tabSession(state: unknown): string | undefined {
  if (state === null || typeof state !== "object" || !("sessionId" in state)) return undefined;
  const id = state.sessionId;
  return typeof id === "string" && id !== "" ? id : undefined;
}
