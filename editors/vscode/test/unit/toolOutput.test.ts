import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { numberedCode, outputParts, type NumberedCode, type OutputPart } from "../../src/webview/toolOutput";

describe("a tool's output", () => {
  const cases: { name: string; text: string; want: OutputPart[] }[] = [
    { name: "plain lines", text: "a/b.py\na/__init__.py", want: [{ kind: "text", text: "a/b.py\na/__init__.py" }] },
    { name: "Markdown is text", text: "# x\n**y**", want: [{ kind: "text", text: "# x\n**y**" }] },
    { name: "a fence with a language", text: "```py\nx = 1\n```", want: [{ kind: "code", lang: "py", code: "x = 1\n" }] },
    { name: "text around a fence", text: "ran:\n```console\nok\n```\nexit code 3", want: [{ kind: "text", text: "ran:" }, { kind: "code", lang: "console", code: "ok\n" }, { kind: "text", text: "exit code 3" }] },
    { name: "a longer fence holding a shorter one", text: "````md\n```\nin\n```\n````", want: [{ kind: "code", lang: "md", code: "```\nin\n```\n" }] },
    { name: "an unclosed fence runs to the end", text: "```\na\nb", want: [{ kind: "code", lang: "", code: "a\nb\n" }] },
    { name: "an empty fence", text: "```sh\n\n```", want: [{ kind: "code", lang: "sh", code: "\n" }] },
    { name: "backticks inside a line open nothing", text: "a ``` b", want: [{ kind: "text", text: "a ``` b" }] },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(outputParts(c.text), c.want));
});

describe("a read's numbered lines", () => {
  const cases: { name: string; code: string; want: NumberedCode | undefined }[] = [
    { name: "cat -n lines", code: "     1\tone\n     2\t\ttwo\n", want: { code: "one\n\ttwo\n", numbers: [1, 2], note: "" } },
    { name: "with the note after them", code: "    99\ta\n   100\tb\n\n(Showing lines 99-100 of 300. To see more, read with offset 101.)\n", want: { code: "a\nb\n", numbers: [99, 100], note: "(Showing lines 99-100 of 300. To see more, read with offset 101.)" } },
    { name: "a number wider than the padding", code: "1234567\tx\n", want: { code: "x\n", numbers: [1234567], note: "" } },
    { name: "code without numbers", code: "one\ntwo\n", want: undefined },
    { name: "a line without a number among them", code: "     1\tone\ntwo\n", want: undefined },
    { name: "an empty file's note", code: "(the file is empty)\n", want: undefined },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(numberedCode(c.code), c.want));
});
