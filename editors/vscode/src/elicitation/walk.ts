// Walking the user through a form one field at a time, with Back, and
// the three ways it ends: accept with the answers, decline, cancel. Pure:
// the steps are asked through a FieldPrompter.
import type { ElicitationContentValue } from "@agentclientprotocol/sdk";
import type { Field } from "./form";

/** Where a step is in the walk. */
export interface Step {
  /** 0-based. */
  readonly index: number;
  readonly total: number;
  /** The elicitation's message (what the agent needs). */
  readonly message: string;
}

/** How one step ended: an answer (undefined leaves an optional field out), Back, Decline, or cancelled (Escape, or the agent withdrew it). */
export type StepResult =
  | { readonly kind: "answer"; readonly value: ElicitationContentValue | undefined }
  | { readonly kind: "back" }
  | { readonly kind: "decline" }
  | { readonly kind: "cancel" };

/** Asks the user for one field (QuickPick or InputBox in VS Code; scripted in tests). */
export interface FieldPrompter {
  /** Asks field at step, showing previous (the answer given before Back) or the field's default; resolves cancel once signal aborts. */
  ask(field: Field, step: Step, previous: ElicitationContentValue | undefined, signal: AbortSignal): Promise<StepResult>;
  /** Asks to go on with a form that has no fields (the message alone). */
  confirm(message: string, signal: AbortSignal): Promise<StepResult>;
}

/** What the walk answers: the schema's response without its _meta. */
export type FormAnswer =
  | { readonly action: "accept"; readonly content: Readonly<Record<string, ElicitationContentValue>> }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

/**
 * Asks each field in order; Back returns to the previous field with its
 * answer kept. It ends accepting the answers (fields left out absent),
 * declining when the user declines at any step, and cancelled when they
 * escape or signal aborts (the agent withdrew the request).
 */
export async function walkForm(message: string, fields: readonly Field[], prompter: FieldPrompter, signal: AbortSignal): Promise<FormAnswer> {
  // Read after each step: the agent may withdraw the request while the user answers.
  const withdrawn = (): boolean => signal.aborted;
  if (withdrawn()) return { action: "cancel" };
  if (fields.length === 0) {
    const r = await prompter.confirm(message, signal);
    if (withdrawn()) return { action: "cancel" };
    return r.kind === "answer" ? { action: "accept", content: {} } : r.kind === "decline" ? { action: "decline" } : { action: "cancel" };
  }
  const answers = new Map<string, ElicitationContentValue | undefined>();
  for (let i = 0; i < fields.length; ) {
    const field = fields[i];
    if (field === undefined) break;
    const r = await prompter.ask(field, { index: i, total: fields.length, message }, answers.get(field.key), signal);
    if (withdrawn()) return { action: "cancel" };
    switch (r.kind) {
      case "answer":
        answers.set(field.key, r.value);
        i++;
        break;
      case "back":
        i = Math.max(0, i - 1);
        break;
      case "decline":
        return { action: "decline" };
      case "cancel":
        return { action: "cancel" };
    }
  }
  const content: Record<string, ElicitationContentValue> = {};
  for (const f of fields) {
    const v = answers.get(f.key);
    if (v !== undefined) content[f.key] = v;
  }
  return { action: "accept", content };
}
