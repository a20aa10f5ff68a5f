import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptImage } from "../chat/messages";

/** The most images one prompt carries (the view refuses more). */
export const MAX_PROMPT_IMAGES = 8;
/**
 * The most base64 characters of all of a prompt's images (about 22 MB of
 * bytes): with the prompt's text and its JSON, the frame stays under the
 * 32 MiB line dsh-acp reads (acp.DefaultMaxLineBytes). The view refuses
 * more (MAX_TOTAL_IMAGE_BYTES in src/webview/images.ts).
 */
export const MAX_IMAGE_CHARS = 30 * 1024 * 1024;

/** The note the view shows when the agent takes no images. */
export const NO_IMAGES = "This agent does not take images (its promptCapabilities.image is off): the message went without them.";

/**
 * The images a prompt message from the view carries, read defensively:
 * each an image/* type with base64 data; anything else, or what goes
 * past MAX_PROMPT_IMAGES or MAX_IMAGE_CHARS, is left out.
 */
export function promptImages(v: unknown): PromptImage[] {
  if (!Array.isArray(v)) return [];
  const out: PromptImage[] = [];
  let chars = 0;
  for (const item of v as unknown[]) {
    if (item === null || typeof item !== "object") continue;
    const { mimeType, data, name } = item as Record<string, unknown>;
    if (typeof mimeType !== "string" || !/^image\/[\w.+-]+$/.test(mimeType) || typeof data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) continue;
    chars += data.length;
    if (out.length === MAX_PROMPT_IMAGES || chars > MAX_IMAGE_CHARS) break;
    out.push({ mimeType, data, name: typeof name === "string" ? name : "image" });
  }
  return out;
}

/** The ACP image blocks of images. */
export function imageBlocks(images: readonly PromptImage[]): ContentBlock[] {
  return images.map((i) => ({ type: "image", mimeType: i.mimeType, data: i.data }));
}

/** How a sent prompt's images are named under it: "1 image", "2 images". */
export function imagesLabel(n: number): string | undefined {
  return n === 0 ? undefined : `${n} ${n === 1 ? "image" : "images"}`;
}
