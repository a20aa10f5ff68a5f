import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import { ImageAttachments, MAX_IMAGE_BYTES, MAX_TOTAL_IMAGE_BYTES } from "../../src/webview/images";
import { installDom } from "./dom";

let window: Window;
beforeEach(() => {
  window = installDom();
});
afterEach(async () => {
  await window.happyDOM.close();
});

describe("images pasted or dropped into the input", () => {
  it("shows each as a removable thumbnail and hands them to the next prompt as base64", async () => {
    const box = document.createElement("div");
    const input = document.createElement("textarea");
    const notes: string[] = [];
    const images = new ImageAttachments(box, input, (t) => notes.push(t));
    assert.equal(box.hidden, true);
    await images.add([new File([new Uint8Array([1, 2, 3])], "a.png", { type: "image/png" }), new File(["x"], "b.gif", { type: "image/gif" })]);
    assert.equal(box.hidden, false);
    assert.equal(box.querySelectorAll('[data-testid="image-chip"]').length, 2);
    assert.equal(box.querySelector("img")?.getAttribute("src"), "data:image/png;base64,AQID");
    box.querySelectorAll<HTMLElement>('[data-testid="image-remove"]')[1]?.click();
    assert.deepEqual(images.take(), [{ mimeType: "image/png", data: "AQID", name: "a.png" }]);
    assert.equal(images.count, 0);
    assert.equal(box.hidden, true);
    assert.deepEqual(notes, []);
  });

  it("refuses an image too large, with a note", async () => {
    const box = document.createElement("div");
    const notes: string[] = [];
    const images = new ImageAttachments(box, document.createElement("textarea"), (t) => notes.push(t));
    await images.add([new File([new Uint8Array(MAX_IMAGE_BYTES + 1)], "huge.png", { type: "image/png" })]);
    assert.equal(images.count, 0);
    assert.match(notes[0] ?? "", /huge\.png is larger than 5 MB/);
  });

  it("refuses an image past the message's total, with a note, and takes it again once room is made", async () => {
    const box = document.createElement("div");
    const notes: string[] = [];
    const images = new ImageAttachments(box, document.createElement("textarea"), (t) => notes.push(t));
    const file = (name: string) => new File([new Uint8Array(MAX_IMAGE_BYTES)], name, { type: "image/png" });
    const fit = Math.floor(MAX_TOTAL_IMAGE_BYTES / MAX_IMAGE_BYTES);
    await images.add(Array.from({ length: fit + 1 }, (_, i) => file(`big${String(i)}.png`)));
    assert.equal(images.count, fit);
    assert.equal(notes.length, 1);
    assert.match(notes[0] ?? "", new RegExp(`at most ${String(MAX_TOTAL_IMAGE_BYTES / 1024 / 1024)} MB in all; big${String(fit)}\\.png was not attached`));
    images.take();
    await images.add([file("again.png")]);
    assert.equal(images.count, 1, "a new message has the whole total again");
  });

  it("takes images from a paste and a drop into the input, and leaves other pastes to the input", async () => {
    const box = document.createElement("div");
    const input = document.createElement("textarea");
    const images = new ImageAttachments(box, input, () => undefined);
    const transfer = (file: unknown) => {
      const dt = new window.DataTransfer();
      dt.items.add(file as never);
      return dt;
    };
    const text = new window.ClipboardEvent("paste", { clipboardData: transfer(new window.File(["hi"], "a.txt", { type: "text/plain" })), cancelable: true });
    input.dispatchEvent(text as unknown as Event);
    assert.equal(text.defaultPrevented, false, "a text paste is the input's");
    const paste = new window.ClipboardEvent("paste", { clipboardData: transfer(new window.File(["png"], "shot.png", { type: "image/png" })), cancelable: true });
    input.dispatchEvent(paste as unknown as Event);
    assert.equal(paste.defaultPrevented, true);
    const drop = new window.Event("drop", { cancelable: true });
    Object.defineProperty(drop, "dataTransfer", { value: transfer(new window.File(["gif"], "anim.gif", { type: "image/gif" })) });
    input.dispatchEvent(drop as unknown as Event);
    assert.equal(drop.defaultPrevented, true);
    await images.idle();
    assert.deepEqual(images.take().map((i) => [i.name, i.mimeType]), [["shot.png", "image/png"], ["anim.gif", "image/gif"]]);
  });
});
