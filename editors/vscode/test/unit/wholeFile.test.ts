import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type * as vscode from "vscode";
import { DiffContentProvider, DIFF_SCHEME, openChangeDiff } from "../../src/diff/provider";
import { applyHunks, wholeFileSides, type Hunk, type Side } from "../../src/diff/wholeFile";
import { stub } from "../stubs/control";

// A file of twenty lines and dsh's applied hunks (three lines of context,
// as diffcard.Hunks makes them) for a change of line 3 and one of line 15.
const lines = (from: number, to: number, changed: readonly number[] = []): string => {
  let s = "";
  for (let i = from; i <= to; i++) s += `${changed.includes(i) ? "L" : "l"}${i}\n`;
  return s;
};
const BEFORE = lines(1, 20);
const AFTER = lines(1, 20, [3, 15]);
const FIRST: Hunk = { oldText: lines(1, 6), newText: lines(1, 6, [3]) };
const SECOND: Hunk = { oldText: lines(12, 18), newText: lines(12, 18, [15]) };
const HUNKS: Hunk[] = [FIRST, SECOND];
const FIRST_ONLY = lines(1, 20, [3]);

describe("whole-file sides of a diff card", () => {
  const cases: { name: string; hunks: Hunk[]; current: string | undefined; expected: Side; want: { before: string; after: string; disk: Side | undefined } }[] = [
    { name: "a proposed change: the file is the before side", hunks: [FIRST], current: BEFORE, expected: "before", want: { before: BEFORE, after: FIRST_ONLY, disk: "before" } },
    { name: "an applied change: the file is the after side", hunks: [FIRST], current: FIRST_ONLY, expected: "after", want: { before: BEFORE, after: FIRST_ONLY, disk: "after" } },
    { name: "two hunks, applied", hunks: HUNKS, current: AFTER, expected: "after", want: { before: BEFORE, after: AFTER, disk: "after" } },
    { name: "two hunks, proposed", hunks: HUNKS, current: BEFORE, expected: "before", want: { before: BEFORE, after: AFTER, disk: "before" } },
    { name: "expected after, but the change is not applied yet", hunks: HUNKS, current: BEFORE, expected: "after", want: { before: BEFORE, after: AFTER, disk: "before" } },
    { name: "a created file, proposed (no file yet)", hunks: [{ oldText: null, newText: "new\n" }], current: undefined, expected: "before", want: { before: "", after: "new\n", disk: "before" } },
    { name: "a created file, applied", hunks: [{ oldText: null, newText: "new\n" }], current: "new\n", expected: "after", want: { before: "", after: "new\n", disk: "after" } },
    // A created file's diff showed an empty line 1 removed: its before side was "\n".
    { name: "a created file the editor gave a final newline", hunks: [{ oldText: null, newText: "new" }], current: "new\n", expected: "after", want: { before: "", after: "new\n", disk: "after" } },
    { name: "a created file edited since", hunks: [{ oldText: null, newText: "new\n" }], current: "new\nmore\n", expected: "after", want: { before: "", after: "new\nmore\n", disk: "after" } },
    { name: "a tool's own old and new strings, mid-line", hunks: [{ oldText: "original notes", newText: "notes updated" }], current: "# Notes\n\noriginal notes\n", expected: "before", want: { before: "# Notes\n\noriginal notes\n", after: "# Notes\n\nnotes updated\n", disk: "before" } },
    { name: "hunks that fit neither side: the hunks alone", hunks: HUNKS, current: "something else\n", expected: "after", want: { before: lines(1, 6) + lines(12, 18), after: FIRST.newText + SECOND.newText, disk: undefined } },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(wholeFileSides(c.hunks, c.current, c.expected), c.want));

  it("finds each hunk after the previous one, not an earlier copy of its text", () => {
    const text = "x\nx\n";
    assert.equal(applyHunks(text, [{ oldText: "x\n", newText: "a\n" }, { oldText: "x\n", newText: "b\n" }], "before"), "a\nb\n");
  });

  it("does not place a pure insertion in a text it cannot locate it in", () => {
    assert.equal(applyHunks("abc\n", [{ oldText: null, newText: "new\n" }], "before"), undefined);
  });
});

describe("opening a card's diff", () => {
  let dir: string;
  beforeEach(() => {
    stub.reset();
    dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-diff-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("shows an applied change as the whole file before against the file itself", async () => {
    const file = path.join(dir, "a.txt");
    writeFileSync(file, AFTER);
    const p = new DiffContentProvider();
    await openChangeDiff(p, file, HUNKS, "after");
    const [left, right, title] = (stub.executed[0]?.args ?? []) as [vscode.Uri, vscode.Uri, string];
    assert.equal(p.provideTextDocumentContent(left), BEFORE);
    assert.equal(right.scheme, "file");
    assert.equal(title, "a.txt (before dsh ↔ now)");
  });

  it("shows a proposed change as the whole file now against the whole file proposed", async () => {
    const file = path.join(dir, "a.txt");
    writeFileSync(file, BEFORE);
    const p = new DiffContentProvider();
    await openChangeDiff(p, file, HUNKS, "before");
    const [left, right, title] = (stub.executed[0]?.args ?? []) as [vscode.Uri, vscode.Uri, string];
    assert.equal(p.provideTextDocumentContent(left), BEFORE);
    assert.equal(right.scheme, DIFF_SCHEME);
    assert.equal(p.provideTextDocumentContent(right), AFTER);
    assert.equal(title, "a.txt (now ↔ proposed by dsh)");
  });
});
