/** The command ids the extension contributes (package.json contributes.commands). */
export const COMMANDS = {
  setApiKey: "dsh.setApiKey",
  newSession: "dsh.newSession",
  stop: "dsh.stop",
  reviewChanges: "dsh.reviewChanges",
  acceptAll: "dsh.acceptAll",
  rejectAll: "dsh.rejectAll",
} as const;
