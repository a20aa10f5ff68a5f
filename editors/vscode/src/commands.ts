/** The command ids the extension contributes (package.json contributes.commands). */
export const COMMANDS = {
  setApiKey: "dsh.setApiKey",
  newSession: "dsh.newSession",
  conversations: "dsh.conversations",
  newConversationTab: "dsh.newConversationTab",
  /** The Agent view's title actions: they act on the view's own conversation, not the one last worked in. */
  viewConversations: "dsh.view.conversations",
  viewNewSession: "dsh.view.newSession",
  stop: "dsh.stop",
  reviewChanges: "dsh.reviewChanges",
  acceptAll: "dsh.acceptAll",
  rejectAll: "dsh.rejectAll",
  acceptFile: "dsh.acceptFile",
  rejectFile: "dsh.rejectFile",
  keepHunk: "dsh.keepHunk",
  undoHunk: "dsh.undoHunk",
} as const;
