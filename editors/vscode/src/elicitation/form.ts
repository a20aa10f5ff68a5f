// A form elicitation's requested schema as the fields the user is walked
// through, and each answer checked and converted as the schema says. Pure:
// no vscode import.
import { ElicitationPropertySchema, MultiSelectItems } from "@agentclientprotocol/sdk";
import type { ElicitationContentValue, ElicitationSchema, EnumOption } from "@agentclientprotocol/sdk";

/** One choice of a single- or multi-select field. */
export interface Choice {
  /** The value answered. */
  readonly value: string;
  /** What the user reads (the option's title, else its value). */
  readonly label: string;
  readonly description?: string;
}

interface FieldBase {
  /** The property's name (the answer's key). */
  readonly key: string;
  /** What the step asks: the property's title, else its name. */
  readonly title: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A form field, by how it is asked. */
export type Field =
  | (FieldBase & { readonly kind: "text"; readonly default?: string; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly format?: string })
  | (FieldBase & { readonly kind: "number" | "integer"; readonly default?: number; readonly minimum?: number; readonly maximum?: number })
  | (FieldBase & { readonly kind: "boolean"; readonly default?: boolean })
  | (FieldBase & { readonly kind: "choice"; readonly choices: readonly Choice[]; readonly default?: string })
  | (FieldBase & { readonly kind: "multi"; readonly choices: readonly Choice[]; readonly default?: string[]; readonly minItems?: number; readonly maxItems?: number });

/** The fields of a form, or why it cannot be shown. */
export type FormFields = { readonly ok: true; readonly fields: readonly Field[] } | { readonly ok: false; readonly reason: string };

const opt = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

function choicesOf(options: readonly EnumOption[]): Choice[] {
  return options.map((o) => ({ value: o.const, label: o.title || o.const, ...(o.description ? { description: o.description } : {}) }));
}

const plain = (values: readonly string[]): Choice[] => values.map((v) => ({ value: v, label: v }));

// What every field says of itself: its name, title, description, whether required.
function about(key: string, p: { readonly title?: string | null; readonly description?: string | null }, required: boolean): FieldBase {
  const title = p.title?.trim() ?? "";
  return { key, title: title === "" ? key : title, required, ...(p.description ? { description: p.description } : {}) };
}

// One property as a field, or undefined when its type is none this client knows.
function fieldOf(key: string, p: ElicitationPropertySchema, required: boolean): Field | undefined {
  if (ElicitationPropertySchema.isString(p)) {
    const choices = p.oneOf ? choicesOf(p.oneOf) : p.enum ? plain(p.enum) : undefined;
    if (choices) return { ...about(key, p, required), kind: "choice", choices, default: opt(p.default) };
    return { ...about(key, p, required), kind: "text", default: opt(p.default), minLength: opt(p.minLength), maxLength: opt(p.maxLength), pattern: opt(p.pattern), format: opt(p.format) };
  }
  if (ElicitationPropertySchema.isNumber(p) || ElicitationPropertySchema.isInteger(p)) {
    return { ...about(key, p, required), kind: p.type, default: opt(p.default), minimum: opt(p.minimum), maximum: opt(p.maximum) };
  }
  if (ElicitationPropertySchema.isBoolean(p)) return { ...about(key, p, required), kind: "boolean", default: opt(p.default) };
  if (ElicitationPropertySchema.isArray(p)) {
    const items = p.items;
    const choices = MultiSelectItems.isString(items) ? plain(items.enum) : MultiSelectItems.isTitled(items) ? choicesOf(items.anyOf) : undefined;
    if (!choices) return undefined;
    return { ...about(key, p, required), kind: "multi", choices, default: opt(p.default), minItems: opt(p.minItems), maxItems: opt(p.maxItems) };
  }
  return undefined;
}

/**
 * The schema's properties as fields, in the schema's order. A property of
 * a type this client does not know is left out when optional; when
 * required, the form cannot be answered here (reason says which).
 */
export function formFields(schema: ElicitationSchema): FormFields {
  const required = new Set(schema.required ?? []);
  const fields: Field[] = [];
  for (const [key, p] of Object.entries(schema.properties ?? {})) {
    const f = fieldOf(key, p, required.has(key));
    if (f) fields.push(f);
    else if (required.has(key)) return { ok: false, reason: `the form asks for "${key}" as ${JSON.stringify(p.type)}, which this editor cannot ask for` };
  }
  return { ok: true, fields };
}

const FORMATS: Readonly<Record<string, { test: (s: string) => boolean; name: string }>> = {
  email: { test: (s) => /^[^\s@]+@[^\s@]+$/.test(s), name: "an email address" },
  uri: { test: (s) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(s), name: "a URI (scheme:…)" },
  date: { test: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)), name: "a date (YYYY-MM-DD)" },
  "date-time": { test: (s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), name: "a date and time (ISO 8601)" },
};

/**
 * Why typed text is no answer to a text or number field (undefined: it
 * is one). Empty text is an answer only to an optional field (it leaves
 * the field out).
 */
export function textProblem(field: Field & { kind: "text" | "number" | "integer" }, text: string): string | undefined {
  if (text === "") return field.required ? "An answer is required." : undefined;
  if (field.kind === "text") {
    if (field.minLength !== undefined && text.length < field.minLength) return `At least ${field.minLength} characters.`;
    if (field.maxLength !== undefined && text.length > field.maxLength) return `At most ${field.maxLength} characters.`;
    if (field.pattern !== undefined && !safeMatch(field.pattern, text)) return `Must match ${field.pattern}.`;
    const format = field.format === undefined ? undefined : FORMATS[field.format];
    if (format && !format.test(text)) return `Must be ${format.name}.`;
    return undefined;
  }
  const n = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(n)) return "Must be a number.";
  if (field.kind === "integer" && !Number.isInteger(n)) return "Must be a whole number.";
  if (field.minimum !== undefined && n < field.minimum) return `At least ${field.minimum}.`;
  if (field.maximum !== undefined && n > field.maximum) return `At most ${field.maximum}.`;
  return undefined;
}

// A pattern the agent sent that is no valid regular expression checks nothing.
function safeMatch(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

/** The answer typed text gives a text or number field (undefined: left out); textProblem must have passed. */
export function textValue(field: Field & { kind: "text" | "number" | "integer" }, text: string): ElicitationContentValue | undefined {
  if (text === "") return undefined;
  return field.kind === "text" ? text : Number(text.trim());
}

/** Why picked values are no answer to a multi-select field (undefined: they are one). */
export function pickProblem(field: Field & { kind: "multi" }, picked: readonly string[]): string | undefined {
  if (picked.length === 0 && field.required && (field.minItems ?? 1) > 0) return "Pick at least one.";
  if (field.minItems !== undefined && picked.length > 0 && picked.length < field.minItems) return `Pick at least ${field.minItems}.`;
  if (field.maxItems !== undefined && picked.length > field.maxItems) return `Pick at most ${field.maxItems}.`;
  return undefined;
}

/** An answer as the chat shows it. */
export function answerText(v: ElicitationContentValue): string {
  if (Array.isArray(v)) return v.join(", ");
  if (typeof v === "boolean") return v ? "yes" : "no";
  return String(v);
}
