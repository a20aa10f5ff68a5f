import * as vscode from "vscode";
import type { RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { planExcerpt, reviewedPlan } from "../plan/planReview";
import { besideButtons, buttonsFor, editQuestion, outcomeFor, outcomeForOption, permissionText, READ_PLAN, SHOW_DIFF, SHOW_PLAN, type PermissionButton } from "./mapping";
import type { ToolCallState } from "../session/toolCalls";

/** Where the same question is asked inline (the tool call's card in the chat view). */
export interface InlinePermissionUI {
  /** Shows the question on the card; answer is called with the chosen option id (undefined: cancelled). */
  show(requestId: string, req: RequestPermissionRequest): void;
  /** Removes the question from the card once answered anywhere. */
  resolved(requestId: string, outcome: RequestPermissionResponse): void;
}

/** What the broker needs besides the UI. */
export interface BrokerDeps {
  readonly inline: InlinePermissionUI;
  /** The session's knowledge of the call (title, command, diffs). */
  readonly call: (toolCallId: string) => ToolCallState | undefined;
  /** Opens the diff of the call's first change. */
  readonly showDiff: (call: ToolCallState) => Promise<void>;
  /** Opens the Markdown plan a plan review asks about (absent: a plan review is asked as any other question). */
  readonly showPlan?: (markdown: string) => Promise<void>;
}

interface Pending {
  readonly req: RequestPermissionRequest;
  readonly settle: (r: RequestPermissionResponse) => void;
}

/**
 * Asks the user about session/request_permission twice at once: a modal
 * warning with the call's title (the full command for bash), exactly the
 * agent's options and "Show diff" for edits, and inline on the call's
 * card. The first answer wins and clears the other; closing the modal
 * answers the agent's "reject once" option (VS Code shows no Cancel of
 * its own then), or cancelled when it offers none; the agent cancelling
 * the request answers cancelled. An edit's proposed change opens in the
 * diff editor at once, and its question is asked in a notification beside
 * it (never a modal over it): a short "Edit notes.md?", only the agent's
 * allow-once and reject-once options (see besideButtons: VS Code truncates
 * more buttons; the card shows every option, the message says so) and
 * "Show diff" to open it again; closing that notification leaves the
 * question on the card. A plan review (see
 * reviewedPlan) opens its Markdown plan in the preview and asks in a modal
 * with both choices and the plan's start; "Read the plan first" (or
 * closing it) leaves the modal for a notification beside the preview,
 * with "Show plan", and the card.
 */
export class PermissionBroker {
  private readonly deps: BrokerDeps;
  private readonly pending = new Map<string, Pending>();
  private next = 0;

  constructor(deps: BrokerDeps) {
    this.deps = deps;
  }

  /** Asks; resolves with the first answer. */
  ask(req: RequestPermissionRequest, signal?: AbortSignal): Promise<RequestPermissionResponse> {
    const requestId = `p${++this.next}`;
    return new Promise<RequestPermissionResponse>((resolve) => {
      let done = false;
      const settle = (r: RequestPermissionResponse): void => {
        if (done) return;
        done = true;
        this.pending.delete(requestId);
        this.deps.inline.resolved(requestId, r);
        resolve(r);
      };
      this.pending.set(requestId, { req, settle });
      signal?.addEventListener("abort", () => settle({ outcome: { outcome: "cancelled" } }), { once: true });
      this.deps.inline.show(requestId, req);
      void this.native(req).then((r) => {
        if (r) settle(r);
      });
    });
  }

  /** The card's answer for requestId (undefined optionId: cancelled). */
  answerInline(requestId: string, optionId: string | undefined): void {
    const p = this.pending.get(requestId);
    if (p) p.settle(outcomeForOption(p.req.options, optionId));
  }

  /** Cancels every open question (the turn was stopped). */
  cancelAll(): void {
    for (const p of [...this.pending.values()]) p.settle({ outcome: { outcome: "cancelled" } });
  }

  /** Cancels the open questions of sessionId (a subagent the user stopped). */
  cancelSession(sessionId: string): void {
    for (const p of [...this.pending.values()]) if (p.req.sessionId === sessionId) p.settle({ outcome: { outcome: "cancelled" } });
  }

  /** The number of open questions. */
  get openCount(): number {
    return this.pending.size;
  }

  private async native(req: RequestPermissionRequest): Promise<RequestPermissionResponse | undefined> {
    const call = this.deps.call(req.toolCall.toolCallId);
    const text = permissionText(req, call);
    const buttons = buttonsFor(req.options);
    // The agent's "reject once" is what closing the modal means, and VS
    // Code then adds no Cancel of its own in the middle of the options.
    const close = buttons.find((b) => b.kind === "reject_once");
    const items: vscode.MessageItem[] = buttons.map((b) => ({ title: b.label, isCloseAffordance: b === close }));
    const plan = reviewedPlan(req, call);
    if (plan !== undefined && this.deps.showPlan) return reviewPlan(plan, this.deps.showPlan, buttons);
    if (call === undefined || call.diffs.length === 0) {
      const clicked = await vscode.window.showWarningMessage(text.message, { modal: true, detail: text.detail }, ...items);
      return outcomeFor(buttons, clicked?.title);
    }
    // An edit: the proposed change opens in the diff editor at once, and the
    // question goes on beside it, in a notification and on the card, never
    // as a modal over the diff.
    const offered = besideButtons(buttons);
    return beside(() => this.deps.showDiff(call), editQuestion(req, call, offered.length), SHOW_DIFF, offered);
  }
}

/** The question a plan review asks. */
const PLAN_QUESTION = "dsh has a plan: implement it, or keep planning?";

/**
 * Asks about a plan: it opens in the preview, then a modal asks with both
 * choices and the plan's start in its detail. A modal cannot show the
 * whole plan, so its close affordance is "Read the plan first": the
 * question then waits beside the preview (a notification, and the card).
 */
async function reviewPlan(plan: string, show: (markdown: string) => Promise<void>, buttons: readonly PermissionButton[]): Promise<RequestPermissionResponse | undefined> {
  await show(plan);
  const detail = `${planExcerpt(plan)}\n\nThe whole plan is open in the preview.`;
  const items: vscode.MessageItem[] = [...buttons.map((b) => ({ title: b.label })), { title: READ_PLAN, isCloseAffordance: true }];
  const clicked = (await vscode.window.showWarningMessage(PLAN_QUESTION, { modal: true, detail }, ...items))?.title;
  if (clicked !== undefined && clicked !== READ_PLAN) return outcomeFor(buttons, clicked);
  return beside(() => show(plan), `${PLAN_QUESTION} (answer here or on the card in the dsh view)`, SHOW_PLAN, besideButtons(buttons));
}

/**
 * Opens what a question is about (a diff, a plan) and asks beside it in a
 * notification with buttons (see besideButtons) and again (the label that
 * opens it again); a notification closed unanswered leaves the question on the
 * card (undefined).
 */
async function beside(open: () => Promise<void>, message: string, again: string, buttons: readonly PermissionButton[]): Promise<RequestPermissionResponse | undefined> {
  const items: vscode.MessageItem[] = [...buttons.map((b) => ({ title: b.label })), { title: again }];
  for (;;) {
    await open();
    const clicked = (await vscode.window.showWarningMessage(message, {}, ...items))?.title;
    if (clicked === undefined) return undefined;
    if (clicked !== again) return outcomeFor(buttons, clicked);
  }
}
