// The FieldPrompter of VS Code: a choice is a QuickPick (many at once for
// a multi-select), text and numbers an InputBox, each a step "n/total"
// with Back (after the first) and Decline buttons; Escape cancels. The
// inputs stay open when focus moves elsewhere (the user may look at the
// code before answering).
import type { ElicitationContentValue } from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import { pickProblem, textProblem, textValue, type Choice, type Field } from "./form";
import type { FieldPrompter, Step, StepResult } from "./walk";

/** The button that declines the whole form. */
const DECLINE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon("circle-slash"), tooltip: "Decline to answer" };

interface PickItem extends vscode.QuickPickItem {
  /** The value answered; undefined: the field is left out (Skip). */
  readonly value: ElicitationContentValue | undefined;
}

const SKIP: PickItem = { label: "Skip", description: "leave this unanswered", value: undefined };

/** The QuickPick items of a single-choice field (booleans are Yes / No), Skip last when optional. */
export function choiceItems(field: Field & { kind: "choice" | "boolean" }): PickItem[] {
  const items: PickItem[] =
    field.kind === "boolean"
      ? [
          { label: "Yes", value: true },
          { label: "No", value: false },
        ]
      : field.choices.map((c: Choice) => ({ label: c.label, value: c.value, ...(c.description ? { detail: c.description } : {}) }));
  return field.required ? items : [...items, SKIP];
}

/** Asks through VS Code's QuickPick and InputBox. */
export class QuickInputPrompter implements FieldPrompter {
  ask(field: Field, step: Step, previous: ElicitationContentValue | undefined, signal: AbortSignal): Promise<StepResult> {
    switch (field.kind) {
      case "text":
      case "number":
      case "integer":
        return this.type(field, step, previous ?? field.default, signal);
      case "multi":
        return this.pickMany(field, step, previous ?? field.default, signal);
      case "choice":
      case "boolean":
        return this.pickOne(field, step, previous ?? field.default, signal);
    }
  }

  confirm(message: string, signal: AbortSignal): Promise<StepResult> {
    const pick = vscode.window.createQuickPick<PickItem>();
    pick.title = message;
    pick.items = [{ label: "Continue", value: true }];
    return session(pick, { index: 0, total: 1, message }, signal, () => ({ kind: "answer", value: undefined }));
  }

  private pickOne(field: Field & { kind: "choice" | "boolean" }, step: Step, current: ElicitationContentValue | undefined, signal: AbortSignal): Promise<StepResult> {
    const pick = vscode.window.createQuickPick<PickItem>();
    describe(pick, field, step);
    pick.items = choiceItems(field);
    const active = pick.items.find((i) => i.value !== undefined && i.value === current);
    if (active) pick.activeItems = [active];
    return session(pick, step, signal, () => {
      const [chosen] = pick.selectedItems.length > 0 ? pick.selectedItems : pick.activeItems;
      return chosen ? { kind: "answer", value: chosen.value } : undefined;
    });
  }

  private pickMany(field: Field & { kind: "multi" }, step: Step, current: ElicitationContentValue | undefined, signal: AbortSignal): Promise<StepResult> {
    const pick = vscode.window.createQuickPick<PickItem>();
    describe(pick, field, step);
    pick.canSelectMany = true;
    pick.items = field.choices.map((c) => ({ label: c.label, value: c.value, ...(c.description ? { detail: c.description } : {}) }));
    const chosen = new Set(Array.isArray(current) ? current : []);
    pick.selectedItems = pick.items.filter((i) => typeof i.value === "string" && chosen.has(i.value));
    const hint = pick.placeholder;
    return session(pick, step, signal, () => {
      const values = pick.selectedItems.flatMap((i) => (typeof i.value === "string" ? [i.value] : []));
      const problem = pickProblem(field, values);
      if (problem !== undefined) {
        pick.placeholder = `${problem} ${hint ?? ""}`.trim();
        return undefined;
      }
      return { kind: "answer", value: values.length === 0 && !field.required ? undefined : values };
    });
  }

  private type(field: Field & { kind: "text" | "number" | "integer" }, step: Step, current: ElicitationContentValue | undefined, signal: AbortSignal): Promise<StepResult> {
    const box = vscode.window.createInputBox();
    box.title = field.title;
    box.step = step.index + 1;
    box.totalSteps = step.total;
    box.prompt = field.description ?? step.message;
    box.placeholder = field.required ? "" : "Leave empty to skip";
    box.value = current === undefined ? "" : String(current);
    box.onDidChangeValue((v) => {
      box.validationMessage = undefined;
      if (v !== "") box.validationMessage = textProblem(field, v);
    });
    return session(box, step, signal, () => {
      const problem = textProblem(field, box.value);
      box.validationMessage = problem;
      return problem === undefined ? { kind: "answer", value: textValue(field, box.value) } : undefined;
    });
  }
}

// The step's title (the question), its place, and what it is about.
function describe(pick: vscode.QuickPick<PickItem>, field: Field, step: Step): void {
  pick.title = field.title;
  pick.step = step.index + 1;
  pick.totalSteps = step.total;
  pick.placeholder = field.description ?? step.message;
  pick.matchOnDetail = true;
}

/**
 * Shows input until it ends: accepted (accept's answer; undefined keeps
 * it open: the answer is no answer yet), Back, Decline, hidden (Escape:
 * cancel) or signal aborted (cancel). It is disposed of after.
 */
function session(input: vscode.QuickPick<PickItem> | vscode.InputBox, step: Step, signal: AbortSignal, accept: () => StepResult | undefined): Promise<StepResult> {
  input.buttons = step.index > 0 ? [vscode.QuickInputButtons.Back, DECLINE] : [DECLINE];
  input.ignoreFocusOut = true;
  return new Promise<StepResult>((resolve) => {
    let done = false;
    const end = (r: StepResult): void => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", abort);
      resolve(r);
      input.hide();
      input.dispose();
    };
    const abort = (): void => end({ kind: "cancel" });
    signal.addEventListener("abort", abort, { once: true });
    input.onDidTriggerButton((b) => end(b === vscode.QuickInputButtons.Back ? { kind: "back" } : { kind: "decline" }));
    input.onDidAccept(() => {
      const r = accept();
      if (r) end(r);
    });
    input.onDidHide(() => end({ kind: "cancel" }));
    if (signal.aborted) abort();
    else input.show();
  });
}
