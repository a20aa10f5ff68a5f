import { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../chat/messages";
import { answerText, formFields, type Field } from "./form";
import { walkForm, type FieldPrompter, type FormAnswer } from "./walk";

/** What answering elicitations uses. */
export interface ElicitationsDeps {
  /** Notes the question and its outcome in the chat. */
  readonly post: (m: ToWebview) => void;
  /** Asks the fields (QuickInputPrompter in VS Code). */
  readonly prompter: FieldPrompter;
}

/** The chat's line for how a form ended. */
export function outcomeText(fields: readonly Field[], answer: FormAnswer): string {
  switch (answer.action) {
    case "decline":
      return "You declined to answer.";
    case "cancel":
      return "The question was cancelled.";
    case "accept": {
      const parts = fields.flatMap((f) => {
        const v = answer.content[f.key];
        return v === undefined ? [] : [`${f.title} → ${answerText(v)}`];
      });
      return parts.length === 0 ? "You answered." : `You answered: ${parts.join("; ")}`;
    }
  }
}

/**
 * Answers elicitation/create: a form is walked field by field (see
 * walkForm) and answered accept with the values, decline or cancel; the
 * chat notes the question and the outcome, unless the question belongs
 * to a tool call (ask_user's, or an MCP server's during its call): its
 * card already shows the question and, with its result, the answer. A URL or unknown mode (this
 * client advertises neither) and a form with a required field of a type
 * it cannot ask for are declined, the user told why. cancelAll (the user
 * stopped the turn) cancels every open one.
 */
export class Elicitations {
  private readonly deps: ElicitationsDeps;
  private readonly open = new Set<AbortController>();

  constructor(deps: ElicitationsDeps) {
    this.deps = deps;
  }

  /** Answers req; signal aborts when the agent withdraws it. */
  async answer(req: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const note = (text: string, level: "info" | "error" = "info"): void => this.deps.post({ type: "notice", level, text });
    if (!CreateElicitationRequest.isForm(req)) {
      note(`dsh asked through a ${req.mode} form, which this editor does not show; it was declined: ${req.message}`, "error");
      return { action: "decline" };
    }
    const form = formFields(req.requestedSchema);
    if (!form.ok) {
      note(`dsh asked a question this editor cannot show (${form.reason}); it was declined: ${req.message}`, "error");
      return { action: "decline" };
    }
    const onCard = "toolCallId" in req && typeof req.toolCallId === "string";
    if (!onCard) note(`dsh asks: ${req.message}`);
    const mine = new AbortController();
    const stop = (): void => mine.abort();
    signal.addEventListener("abort", stop, { once: true });
    if (signal.aborted) stop();
    this.open.add(mine);
    try {
      const answer = await walkForm(req.message, form.fields, this.deps.prompter, mine.signal);
      if (!onCard) note(outcomeText(form.fields, answer));
      return answer.action === "accept" ? { action: "accept", content: { ...answer.content } } : { action: answer.action };
    } finally {
      this.open.delete(mine);
      signal.removeEventListener("abort", stop);
    }
  }

  /** Cancels every open question. */
  cancelAll(): void {
    for (const c of [...this.open]) c.abort();
  }

  /** The number of open questions. */
  get openCount(): number {
    return this.open.size;
  }
}
