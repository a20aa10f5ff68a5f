import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import { EditMode } from "../../src/webview/editMode";
import { installDom } from "./dom";

let window: Window;
beforeEach(() => {
  window = installDom();
});
afterEach(async () => {
  await window.happyDOM.close();
});

describe("edit mode", () => {
  it("puts the text in the input, shows the line, and hands the restore point to the next send once", () => {
    const chip = document.createElement("div");
    chip.innerHTML = '<button class="editing-cancel"></button>';
    const input = document.createElement("textarea");
    const mode = new EditMode(chip, input);
    assert.equal(chip.hidden, true);
    mode.start("fix the bug", { index: 2, texts: ["fix the bug"] });
    assert.equal(input.value, "fix the bug");
    assert.equal(chip.hidden, false);
    assert.deepEqual(mode.take(), { index: 2, texts: ["fix the bug"] });
    assert.equal(mode.take(), undefined);
    assert.equal(chip.hidden, true);
    mode.start("again", { index: 0, texts: ["again"] });
    chip.querySelector<HTMLElement>(".editing-cancel")?.click();
    assert.equal(mode.take(), undefined, "× leaves edit mode");
    assert.equal(input.value, "again");
  });
});
