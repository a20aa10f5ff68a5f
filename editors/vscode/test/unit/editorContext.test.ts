import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type * as vscode from "vscode";
import { editorContextOf, MAX_SELECTION_CHARS } from "../../src/session/activeEditor";
import { contextBlocks, contextLabel, mentionContext } from "../../src/session/editorContext";
import { mentions, mentionText } from "../../src/session/mentions";
import { Position, Range, TextDocument, Uri } from "../stubs/vscode";

/** An editor on text at path with the selection from start to end (line, character). */
function editor(path: string, text: string, start: [number, number], end: [number, number], scheme = "file"): vscode.TextEditor {
  const uri = scheme === "file" ? Uri.file(path) : Uri.from({ scheme, path });
  const doc = new TextDocument(uri, text);
  const selection = Object.assign(new Range(new Position(...start), new Position(...end)), { isEmpty: start[0] === end[0] && start[1] === end[1] });
  return { document: doc, selection } as unknown as vscode.TextEditor;
}

describe("context from the editor", () => {
  it("offers the active file, and its selected lines when there is a selection", () => {
    assert.deepEqual(editorContextOf(editor("/ws/a.go", "l1\nl2\nl3\n", [0, 0], [0, 0])), { path: "/ws/a.go" });
    assert.deepEqual(editorContextOf(editor("/ws/a.go", "l1\nl2\nl3\n", [1, 0], [2, 2])), { path: "/ws/a.go", selection: { startLine: 1, endLine: 2, text: "l2\nl3" } });
    assert.equal(editorContextOf(editor("/x", "t", [0, 0], [0, 1], "untitled")), undefined);
    assert.equal(editorContextOf(undefined), undefined);
  });

  it("caps a huge selection", () => {
    const big = "x".repeat(MAX_SELECTION_CHARS * 2);
    assert.equal(editorContextOf(editor("/ws/big.txt", big, [0, 0], [0, big.length]))?.selection?.text.length, MAX_SELECTION_CHARS);
  });

  it("names the context relative to the workspace, with 1-based lines", () => {
    assert.equal(contextLabel({ path: "/ws/src/a.go" }, "/ws"), "src/a.go");
    assert.equal(contextLabel({ path: "/ws/src/a.go", selection: { startLine: 9, endLine: 19, text: "" } }, "/ws"), "src/a.go:10-20");
    assert.equal(contextLabel({ path: "/ws/a.go", selection: { startLine: 4, endLine: 4, text: "" } }, "/ws"), "a.go:5");
    assert.equal(contextLabel({ path: "/elsewhere/b.go" }, "/ws"), "/elsewhere/b.go");
  });

  it("sends a selection as an embedded resource and a file as a resource link", () => {
    assert.deepEqual(contextBlocks({ path: "/ws/my file.go" }), [{ type: "resource_link", uri: "file:///ws/my%20file.go", name: "my file.go" }]);
    assert.deepEqual(contextBlocks({ path: "/ws/a.go", selection: { startLine: 1, endLine: 2, text: "l2\nl3" } }), [
      { type: "resource", resource: { uri: "file:///ws/a.go#L2-L3", mimeType: "text/plain", text: "l2\nl3" } },
    ]);
  });
});

describe("@ mentions", () => {
  const cases: { text: string; want: string[] }[] = [
    { text: "look at @src/a.go and @b.md.", want: ["/ws/src/a.go", "/ws/b.md"] },
    { text: "@a.go twice @a.go", want: ["/ws/a.go"] },
    { text: "mail me@example.com", want: [] },
    { text: "@../etc/passwd @/etc/shadow @/ws/in.go", want: ["/ws/in.go"] },
    { text: "a lone @ sign", want: [] },
  ];
  for (const c of cases) it(c.text, () => assert.deepEqual(mentions(c.text, "/ws").map((m) => m.path), c.want));

  const ranged: { text: string; want: { path: string; lines?: { first: number; last: number } }[] }[] = [
    { text: "see @src/a.ts#L10-20.", want: [{ path: "/ws/src/a.ts", lines: { first: 10, last: 20 } }] },
    { text: "@a.ts#L7 and @a.ts#L3-L5 and @a.ts", want: [{ path: "/ws/a.ts", lines: { first: 7, last: 7 } }, { path: "/ws/a.ts", lines: { first: 3, last: 5 } }, { path: "/ws/a.ts" }] },
    { text: "@a.ts#L9-2 reversed", want: [{ path: "/ws/a.ts", lines: { first: 2, last: 9 } }] },
    { text: "@a.ts#L0 is no line: the file", want: [{ path: "/ws/a.ts" }] },
    { text: "@../out.ts#L1-2", want: [] },
  ];
  for (const c of ranged) {
    it(`with lines: ${c.text}`, () => assert.deepEqual(mentions(c.text, "/ws").map((m) => (m.lines ? m : { path: m.path })), c.want));
  }

  it("writes a mention's lines as #L10-20, one line as #L10", () => {
    assert.equal(mentionText("a.ts", { first: 10, last: 20 }), "a.ts#L10-20");
    assert.equal(mentionText("a.ts", { first: 4, last: 4 }), "a.ts#L4");
    assert.equal(mentionText("a.ts"), "a.ts");
  });

  it("carries the lines a mention names, clamped to the file; past its end, the file alone", () => {
    const text = "one\ntwo\nthree\n";
    assert.deepEqual(mentionContext({ path: "/ws/a", lines: { first: 2, last: 9 } }, text), { path: "/ws/a", selection: { startLine: 1, endLine: 2, text: "two\nthree" } });
    assert.deepEqual(mentionContext({ path: "/ws/a", lines: { first: 4, last: 5 } }, text), { path: "/ws/a" });
    assert.deepEqual(mentionContext({ path: "/ws/a" }, text), { path: "/ws/a" });
    assert.equal(mentionContext({ path: "/ws/a", lines: { first: 1, last: 1 } }, undefined), undefined);
  });
});
