import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { commandOf, type ToolCallState } from "../session/toolCalls";

/** A button of the native prompt and the option it answers. */
export interface PermissionButton {
  /** The button's label (the option's name, made unique). */
  readonly label: string;
  /** The agent's option id. */
  readonly optionId: string;
  /** The option's kind (allow_once, allow_always, reject_once, reject_always). */
  readonly kind: PermissionOption["kind"];
}

/** The label of the extra button that opens the diff of an edit. */
export const SHOW_DIFF = "Show diff";

/** The label of the extra button that opens the plan of a plan review. */
export const SHOW_PLAN = "Show plan";

/** The label that closes a plan review's modal to read the plan first (the question stays beside it). */
export const READ_PLAN = "Read the plan first";

/** Labels of the extension's own buttons, which an agent's option never takes. */
const OWN_LABELS: ReadonlySet<string> = new Set([SHOW_DIFF, SHOW_PLAN, READ_PLAN]);

/** An option's name as a button shows it: Markdown's code backticks dropped (a button shows no Markdown). */
export function optionLabel(name: string): string {
  return name.replace(/`/g, "");
}

/** One button per agent option, in the agent's order, labels unique and without backticks. */
export function buttonsFor(options: readonly PermissionOption[]): PermissionButton[] {
  const seen = new Set<string>();
  return options.map((o) => {
    const name = optionLabel(o.name);
    let label = name;
    for (let n = 2; seen.has(label) || OWN_LABELS.has(label); n++) label = `${name} (${n})`;
    seen.add(label);
    return { label, optionId: o.optionId, kind: o.kind };
  });
}

/**
 * The buttons a notification beside a diff or plan offers: VS Code
 * truncates a notification's buttons past two or three, so only one
 * answer each way — the agent's allow_once and reject_once, or its
 * allow_always / reject_always when it offers no once-option on that side.
 * Every option stays on the card in the chat.
 */
export function besideButtons(buttons: readonly PermissionButton[]): PermissionButton[] {
  const pick = (once: PermissionButton["kind"], always: PermissionButton["kind"]): PermissionButton | undefined =>
    buttons.find((b) => b.kind === once) ?? buttons.find((b) => b.kind === always);
  const chosen = [pick("allow_once", "allow_always"), pick("reject_once", "reject_always")];
  return chosen.filter((b): b is PermissionButton => b !== undefined);
}

/** The answer for a clicked label; anything else (a dismissed prompt) is cancelled. */
export function outcomeFor(buttons: readonly PermissionButton[], clicked: string | undefined): RequestPermissionResponse {
  const b = buttons.find((x) => x.label === clicked);
  return b ? { outcome: { outcome: "selected", optionId: b.optionId } } : { outcome: { outcome: "cancelled" } };
}

/** The answer for an option id chosen on the card; an unknown id is cancelled. */
export function outcomeForOption(options: readonly PermissionOption[], optionId: string | undefined): RequestPermissionResponse {
  return options.some((o) => o.optionId === optionId) && optionId !== undefined
    ? { outcome: { outcome: "selected", optionId } }
    : { outcome: { outcome: "cancelled" } };
}

/** What the prompt shows: a headline and the details (the full command of a bash call). */
export interface PermissionText {
  readonly message: string;
  readonly detail: string;
}

/**
 * The short question a notification beside an edit's diff asks: the call's
 * title with each changed file's path shortened to its name ("Edit
 * notes.md?"), and where the choices it leaves out are.
 */
export function editQuestion(req: RequestPermissionRequest, call: ToolCallState, shown: number): string {
  let title = req.toolCall.title ?? call.title;
  for (const d of call.diffs) title = title.split(d.path).join(baseName(d.path));
  const where = shown < req.options.length ? "more choices on the card" : "or answer on the card";
  return `${title}? (${where})`;
}

/** A path's last segment (either separator). */
function baseName(path: string): string {
  return path.split(/[\\/]/).filter((s) => s !== "").pop() ?? path;
}

/** The prompt's text for a request, using what the session knows of the call. */
export function permissionText(req: RequestPermissionRequest, call: ToolCallState | undefined): PermissionText {
  const title = req.toolCall.title ?? call?.title ?? "a tool call";
  const command = commandOf(call) ?? commandOf({ rawInput: req.toolCall.rawInput } as ToolCallState);
  if (command !== undefined) return { message: `dsh wants to run a command`, detail: command };
  const paths = (call?.diffs ?? []).map((d) => d.path);
  const locs = (req.toolCall.locations ?? call?.locations ?? []).map((l) => l.path);
  const where = [...new Set([...paths, ...locs])].join("\n");
  return { message: `dsh asks: ${title}`, detail: where };
}
