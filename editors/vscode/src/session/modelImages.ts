// Whether the session's model takes images, as dsh-acp says of each model
// value ({"_meta": {"dsh-acp": {"images": bool}}}). Pure: no vscode import.
import type { SessionConfigOption, SessionConfigSelectOption } from "@agentclientprotocol/sdk";

/** The model values of a select option, flat or in groups. */
function values(option: SessionConfigOption): SessionConfigSelectOption[] {
  if (option.type !== "select") return [];
  return option.options.flatMap((o): SessionConfigSelectOption[] => ("group" in o ? o.options : [o]));
}

/** Whether value's _meta says its model takes images (undefined: it does not say). */
function takesImages(value: SessionConfigSelectOption): boolean | undefined {
  const own: unknown = value._meta?.["dsh-acp"];
  if (own === null || typeof own !== "object" || !("images" in own)) return undefined;
  return typeof own.images === "boolean" ? own.images : undefined;
}

/**
 * The name of the session's model when the agent says it takes no
 * images (the current value of the option of category "model");
 * undefined when it takes them or nobody says.
 */
export function modelRefusingImages(options: readonly SessionConfigOption[] | undefined): string | undefined {
  const model = options?.find((o) => o.category === "model" && o.type === "select");
  if (model?.type !== "select") return undefined;
  const current = values(model).find((v) => v.value === model.currentValue);
  return current && takesImages(current) === false ? current.name : undefined;
}

/** The note shown when a prompt's images stayed behind because the model takes none. */
export function modelTakesNoImages(model: string): string {
  return `${model} does not take images: the message went without them. Pick a model that takes images under Model to send one.`;
}
