// The _meta keys the extension adds to a tool call's update before the
// chat view shows it (never sent to the agent). Pure: shared by the
// extension and the webview.

/** A call a cancel stopped (dsh-acp reports it failed): its card reads "cancelled", not "failed". */
export const STOPPED_META = "dsh.vscode/stopped";

/** Whether an update's _meta marks its call as stopped by a cancel (see STOPPED_META). */
export function isStopped(meta: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return meta?.[STOPPED_META] === true;
}
