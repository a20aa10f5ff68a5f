import { strict as assert } from "node:assert";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Window } from "happy-dom";
import type { FromWebview } from "../../src/chat/messages";
import { MentionCompletion, mentionQuery } from "../../src/webview/mentions";
import { installDom } from "./dom";

let window: Window;
beforeEach(() => {
  window = installDom();
});
afterEach(async () => {
  await window.happyDOM.close();
});

describe("@ mentions in the input", () => {
  const queries: [string, string | undefined][] = [
    ["see @sr", "sr"],
    ["@", ""],
    ["mail me@example", undefined],
    ["done @a.go ", undefined],
  ];
  for (const [text, want] of queries) it(`reads the word at the cursor: ${JSON.stringify(text)}`, () => assert.equal(mentionQuery(text), want));

  it("asks the extension for files, lists them, and puts the picked one in the input", () => {
    const input = document.createElement("textarea");
    const box = document.createElement("div");
    box.hidden = true;
    const sent: FromWebview[] = [];
    const mention = new MentionCompletion(input, box, (m) => sent.push(m));
    input.value = "explain @sr";
    input.selectionStart = input.selectionEnd = input.value.length;
    mention.refresh();
    assert.deepEqual(sent, [{ type: "mention", query: "sr" }]);
    const file = (p: string) => ({ kind: "file" as const, insert: p, label: p });
    mention.show("other", [file("x.go")]);
    assert.equal(box.hidden, true, "an answer to an older query is ignored");
    mention.show("sr", [file("src/a.go"), file("src/b.go")]);
    assert.equal(box.hidden, false);
    assert.equal(mention.completeFirst(), true);
    assert.equal(input.value, "explain @src/a.go ");
    assert.equal(box.hidden, true);
  });

  it("lists the selection and symbols with their lines; picking one puts @path#Lfirst-last in the input", () => {
    const input = document.createElement("textarea");
    const box = document.createElement("div");
    const mention = new MentionCompletion(input, box, () => undefined);
    input.value = "why @Gre and more";
    input.selectionStart = input.selectionEnd = "why @Gre".length;
    mention.refresh();
    mention.show("Gre", [
      { kind: "selection", insert: "src/a.ts#L1-2", label: "Selection", detail: "src/a.ts:1-2" },
      { kind: "symbol", insert: "src/a.ts#L3-5", label: "Greeter", detail: "class · src/a.ts:3-5" },
    ]);
    const items = [...box.querySelectorAll<HTMLElement>('[data-testid="mention-completion"]')];
    assert.deepEqual(items.map((i) => [i.dataset["kind"], i.textContent]), [["selection", "Selection src/a.ts:1-2"], ["symbol", "Greeter class · src/a.ts:3-5"]]);
    items[1]?.click();
    assert.equal(input.value, "why @src/a.ts#L3-5  and more");
  });
});
