import type { ToWebview } from "../chat/messages";
import { openChangeDiff, type DiffContentProvider } from "../diff/provider";
import { PermissionBroker } from "../permission/broker";
import type { PlanDocuments } from "../plan/planDocuments";
import type { ResultsLog } from "./resultsLog";
import type { ToolCallStore } from "./toolCalls";

/** What the chat's approvals use. */
export interface ApprovalsDeps {
  readonly post: (m: ToWebview) => void;
  readonly results: ResultsLog;
  readonly calls: ToolCallStore;
  readonly diffs: DiffContentProvider;
  /** Where a plan review's plan opens (absent: it is asked as any other question). */
  readonly plans?: PlanDocuments | undefined;
}

/**
 * The chat's PermissionBroker: the inline question goes on the call's
 * card in the view (titled from the request, else from what the session
 * knows of the call), each answer is recorded, "Show diff" opens each
 * file the call would change, whole, before and after, and "Show plan"
 * the Markdown plan of a plan review.
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
      // Awaiting approval, the file still holds the text before the change.
      for (const path of new Set(call.diffs.map((d) => d.path))) {
        await openChangeDiff(deps.diffs, path, call.diffs.filter((d) => d.path === path), "before");
      }
    },
    ...(deps.plans ? { showPlan: deps.plans.show.bind(deps.plans) } : {}),
  });
}
