import type { PromptImage } from "../chat/messages";
import { el } from "./dom";

/** The largest image attached (bytes); a larger one is refused with a note. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The most images one prompt carries. */
export const MAX_IMAGES = 8;
/**
 * The most bytes of all of a prompt's images: as base64 they stay under
 * the host's MAX_IMAGE_CHARS (src/session/images.ts), so the prompt fits
 * dsh-acp's 32 MiB frame. An image past it is refused with a note.
 */
export const MAX_TOTAL_IMAGE_BYTES = 20 * 1024 * 1024;

/** The image files among a paste's or a drop's items. */
function imageFiles(data: DataTransfer | null): File[] {
  return [...(data?.files ?? [])].filter((f) => f.type.startsWith("image/"));
}

/** A file's bytes as base64 (what an ACP image block carries). */
async function base64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/**
 * Images pasted or dropped into the input, attached to the next prompt:
 * shown as thumbnails above the input, each removable (×); take() hands
 * them over and clears the list. A file that is not an image is left to
 * the input; one too large, past MAX_IMAGES or past MAX_TOTAL_IMAGE_BYTES
 * in all, is refused with a note.
 */
export class ImageAttachments {
  private readonly box: HTMLElement;
  private readonly note: (text: string) => void;
  private images: PromptImage[] = [];
  // Each attached image's size in bytes.
  private readonly sizes = new WeakMap<PromptImage, number>();
  // The reading of what was pasted or dropped, in order.
  private reading: Promise<void> = Promise.resolve();

  constructor(box: HTMLElement, target: HTMLElement, note: (text: string) => void) {
    this.box = box;
    this.note = note;
    target.addEventListener("paste", (ev) => {
      const files = imageFiles(ev.clipboardData);
      if (files.length === 0) return;
      ev.preventDefault();
      this.queue(files);
    });
    target.addEventListener("dragover", (ev) => {
      if ([...(ev.dataTransfer?.items ?? [])].some((i) => i.kind === "file")) ev.preventDefault();
    });
    target.addEventListener("drop", (ev) => {
      const files = imageFiles(ev.dataTransfer);
      if (files.length === 0) return;
      ev.preventDefault();
      this.queue(files);
    });
    this.render();
  }

  /** Resolves once what was pasted or dropped so far is attached. */
  idle(): Promise<void> {
    return this.reading;
  }

  private queue(files: readonly File[]): void {
    this.reading = this.reading.then(() => this.add(files)).catch(() => this.note("An image could not be read and was not attached."));
  }

  /** Attaches files (images only), refusing those too large or too many. */
  async add(files: readonly File[]): Promise<void> {
    for (const f of files) {
      if (this.images.length >= MAX_IMAGES) {
        this.note(`At most ${MAX_IMAGES} images go with one message; ${f.name || "the image"} was not attached.`);
        continue;
      }
      if (f.size > MAX_IMAGE_BYTES) {
        this.note(`${f.name || "The image"} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB and was not attached.`);
        continue;
      }
      if (this.bytes() + f.size > MAX_TOTAL_IMAGE_BYTES) {
        this.note(`The images of one message come to at most ${MAX_TOTAL_IMAGE_BYTES / 1024 / 1024} MB in all; ${f.name || "the image"} was not attached (send it with the next message).`);
        continue;
      }
      const image = { mimeType: f.type, data: await base64(f), name: f.name || "pasted image" };
      this.sizes.set(image, f.size);
      this.images.push(image);
    }
    this.render();
  }

  /** The attached images, handed to a prompt (the list is then empty). */
  take(): PromptImage[] {
    const out = this.images;
    this.images = [];
    this.render();
    return out;
  }

  /** The attached images' bytes, in all. */
  private bytes(): number {
    return this.images.reduce((n, img) => n + (this.sizes.get(img) ?? 0), 0);
  }

  /** How many images are attached. */
  get count(): number {
    return this.images.length;
  }

  private render(): void {
    this.box.replaceChildren();
    this.box.hidden = this.images.length === 0;
    this.images.forEach((img, i) => {
      const chip = el("span", { class: "image-chip", "data-testid": "image-chip", title: img.name });
      chip.append(el("img", { src: `data:${img.mimeType};base64,${img.data}`, alt: img.name }));
      const remove = el("button", { class: "secondary image-remove", "data-testid": "image-remove", title: `Do not send ${img.name}`, "aria-label": `Remove ${img.name}` }, "×");
      remove.addEventListener("click", () => {
        this.images.splice(i, 1);
        this.render();
      });
      chip.append(remove);
      this.box.append(chip);
    });
  }
}
