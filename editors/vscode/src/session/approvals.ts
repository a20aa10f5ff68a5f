import type { ToWebview } from "../chat/messages";
import { openDiff, type DiffContentProvider } from "../diff/provider";
import { PermissionBroker } from "../permission/broker";
import type { ResultsLog } from "./resultsLog";
import type { ToolCallStore } from "./toolCalls";

/** What the chat's approvals use. */
export interface ApprovalsDeps {
  readonly post: (m: ToWebview) => void;
  readonly results: ResultsLog;
  readonly calls: ToolCallStore;
  readonly diffs: DiffContentProvider;
}

/**
 * The chat's PermissionBroker: the inline question goes on the call's
 * card in the view (titled from the request, else from what the session
 * knows of the call), each answer is recorded, and "Show diff" opens the
 * call's first change.
 */
export function chatApprovals(deps: ApprovalsDeps): PermissionBroker {
  return new PermissionBroker({
    inline: {
      show: (requestId, req) => {
        deps.post({
          type: "permission",
          requestId,
          toolCallId: req.toolCall.toolCallId,
          title: req.toolCall.title ?? deps.calls.get(req.toolCall.toolCallId)?.title ?? "",
          options: req.options,
        });
      },
      resolved: (requestId, outcome) => {
        deps.post({ type: "permissionResolved", requestId });
        void deps.results.record("permission", { outcome: outcome.outcome });
      },
    },
    call: (id) => deps.calls.get(id),
    showDiff: async (call) => {
      const d = call.diffs[0];
      if (d) await openDiff(deps.diffs, d.path, d.oldText);
    },
  });
}
