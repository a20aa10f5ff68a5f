import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { promptContextLabel, splitPromptContext, type PromptContext } from "../../src/chat/promptContext";
import { contextBlocks, contextLabel, type EditorContext } from "../../src/session/editorContext";

// As dsh-acp flattens a prompt (bridge/prompt.go): the resource's marker
// line, then its text in a fence one backtick longer than any run in it.
const resource = (uri: string, body: string) => `\n[resource uri=${JSON.stringify(uri)}]\n${body}\n`;
const link = (name: string, uri: string, body = "") => `\n[resource_link name=${JSON.stringify(name)} uri=${JSON.stringify(uri)}]\n${body}`;
// presentation.Fence: the fence grows while the text holds it; the text's final newlines go.
const fenced = (lang: string, text: string) => {
  let fence = "```";
  while (text.includes(fence)) fence += "`";
  return `${fence}${lang}\n${text.replace(/\n+$/, "")}\n${fence}`;
};

describe("a replayed prompt's context", () => {
  const cart: PromptContext = { path: "/ws/shop/cart.py", lines: { first: 5, last: 7 } };
  const test: PromptContext = { path: "/ws/tests/test_cart.sh" };
  const cases: { name: string; text: string; own: string; contexts: PromptContext[] }[] = [
    { name: "no markers", text: "Rename add to add_item\n[1] and [2]", own: "Rename add to add_item\n[1] and [2]", contexts: [] },
    {
      name: "both markers",
      text: `Rename add to add_item, see @tests/test_cart.sh ${resource("file:///ws/shop/cart.py#L5-L7", fenced("py", "    def add(self, name, price):"))}${link("test_cart.sh", "file:///ws/tests/test_cart.sh", `${fenced("sh", "#!/bin/sh\necho ok")}\n`)}`,
      own: "Rename add to add_item, see @tests/test_cart.sh ",
      contexts: [cart, test],
    },
    { name: "a longer fence around backticks", text: `explain${resource("file:///ws/README.md#L1-L3", fenced("md", "```sh\nmake\n```"))}`, own: "explain", contexts: [{ path: "/ws/README.md", lines: { first: 1, last: 3 } }] },
    {
      name: "a marker and a fence inside a file's text",
      text: `why${link("a.md", "file:///ws/a.md", `${fenced("md", 'x\n[resource uri="file:///ws/b.py"]\n```py\ny\n```')}\n`)}`,
      own: "why",
      contexts: [{ path: "/ws/a.md" }],
    },
    { name: "a bare marker without a fence (a file outside the workspace)", text: `look${link("x.c", "file:///tmp/x.c")}${link("y.c", "file:///tmp/y.c")}`, own: "look", contexts: [{ path: "/tmp/x.c" }, { path: "/tmp/y.c" }] },
    { name: "a file linked twice", text: `a${link("t.sh", "file:///ws/t.sh", `${fenced("sh", "ls")}\n`)}${link("t.sh", "file:///ws/t.sh", "[included once above]\n")}`, own: "a", contexts: [{ path: "/ws/t.sh" }, { path: "/ws/t.sh" }] },
    { name: "a file not read", text: `b${link("big.bin", "file:///ws/big.bin", "[not included: a binary file]\n")}`, own: "b", contexts: [{ path: "/ws/big.bin" }] },
    { name: "a text cut at the limit", text: `c${link("log.txt", "file:///ws/log.txt", `${fenced("txt", "1\n2")}\n[truncated: the first 4 of 900000 bytes are shown; the limit is 256 KiB]\n`)}`, own: "c", contexts: [{ path: "/ws/log.txt" }] },
    { name: "an empty selection's text, one line", text: `d${resource("file:///ws/a%20b/c.go#L4-L4", fenced("go", ""))}`, own: "d", contexts: [{ path: "/ws/a b/c.go", lines: { first: 4, last: 4 } }] },
    { name: "the editor's note before the contexts stays in the text", text: `go on\n\nNote from the editor: x\n\n${link("a.go", "file:///ws/a.go")}`, own: "go on\n\nNote from the editor: x\n\n", contexts: [{ path: "/ws/a.go" }] },
    { name: "a fence never closed is no context", text: `e${resource("file:///ws/a.py#L1-L2", "```py\nx")}`, own: `e${resource("file:///ws/a.py#L1-L2", "```py\nx")}`, contexts: [] },
    { name: "text after the markers is no context", text: `f${link("a.go", "file:///ws/a.go")}and more`, own: `f${link("a.go", "file:///ws/a.go")}and more`, contexts: [] },
    { name: "contexts alone (the text after an image block is a chunk of its own)", text: link("a.go", "file:///ws/a.go", `${fenced("go", "package a")}\n`), own: "", contexts: [{ path: "/ws/a.go" }] },
    { name: "a URI that is not a file's", text: `g${link("spec", "https://example.com/spec")}`, own: "g", contexts: [{ path: "https://example.com/spec" }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = splitPromptContext(c.text);
      assert.equal(got.own, c.own);
      assert.deepEqual(got.contexts, c.contexts);
    });
  }

  const labels: { c: PromptContext; want: string }[] = [
    { c: { path: "/ws/shop/cart.py", lines: { first: 5, last: 7 } }, want: "shop/cart.py:5-7" },
    { c: { path: "/ws/a.go", lines: { first: 4, last: 4 } }, want: "a.go:4" },
    { c: { path: "/tmp/x.c" }, want: "/tmp/x.c" },
  ];
  for (const l of labels) it(`labels ${l.want}`, () => assert.equal(promptContextLabel(l.c, (p) => (p.startsWith("/ws/") ? p.slice(4) : p)), l.want));

  // What the extension sends, flattened as dsh-acp does, reads back as the label the live prompt showed.
  const flat = (b: ContentBlock): string => {
    if (b.type === "resource" && "text" in b.resource) return resource(b.resource.uri, fenced("", b.resource.text));
    if (b.type === "resource_link") return link(b.name, b.uri, `${fenced("", "text")}\n`);
    return "";
  };
  const sent: EditorContext[] = [
    { path: "/ws/shop/cart.py", selection: { startLine: 4, endLine: 6, text: "def add():\n```\n" } },
    { path: "/ws/a b/c#d.go", selection: { startLine: 0, endLine: 0, text: "x" } },
    { path: "/ws/tests/test_cart.sh" },
    { path: "/elsewhere/x.c" },
  ];
  it("reads back the label of each context the extension sends", () => {
    const text = `words${sent.flatMap(contextBlocks).map(flat).join("")}`;
    const { own, contexts } = splitPromptContext(text);
    assert.equal(own, "words");
    assert.deepEqual(
      contexts.map((c) => promptContextLabel(c, (p) => (p.startsWith("/ws/") ? p.slice(4) : p))),
      sent.map((c) => contextLabel(c, "/ws")),
    );
  });
});
