import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { keepHunk, lineCount, lineCounts, textHunks, undoHunk, type TextHunk } from "../../src/review/hunks";

describe("hunks of a reviewed file", () => {
  const cases: { name: string; original: string; current: string; want: Partial<TextHunk>[] }[] = [
    { name: "identical", original: "a\nb\n", current: "a\nb\n", want: [] },
    { name: "one line changed", original: "a\nb\nc\n", current: "a\nB\nc\n", want: [{ oldText: "b\n", newText: "B\n", oldLine: 1, newLine: 1 }] },
    { name: "an insertion", original: "a\nc\n", current: "a\nb\nc\n", want: [{ oldText: "", newText: "b\n", newLine: 1 }] },
    { name: "a deletion", original: "a\nb\nc\n", current: "a\nc\n", want: [{ oldText: "b\n", newText: "", newLine: 1 }] },
    { name: "two apart", original: "1\n2\n3\n4\n5\n", current: "one\n2\n3\n4\nfive\n", want: [{ oldText: "1\n", newText: "one\n", newLine: 0 }, { oldText: "5\n", newText: "five\n", newLine: 4 }] },
    { name: "a created file", original: "", current: "x\ny\n", want: [{ oldText: "", newText: "x\ny\n", newLine: 0 }] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = textHunks(c.original, c.current);
      assert.equal(got.length, c.want.length);
      c.want.forEach((w, i) => assert.deepEqual({ ...got[i], ...w }, got[i]));
    });
  }

  it("undoes exactly one hunk, and keeps exactly one", () => {
    const original = "1\n2\n3\n4\n5\n";
    const current = "one\n2\n3\n4\nfive\n";
    const [first, second] = textHunks(original, current);
    assert.ok(first && second);
    assert.equal(undoHunk(current, second), "one\n2\n3\n4\n5\n");
    assert.equal(undoHunk(current, first), "1\n2\n3\n4\nfive\n");
    const kept = keepHunk(original, first);
    assert.equal(kept, "one\n2\n3\n4\n5\n");
    assert.deepEqual(textHunks(kept, current).map((h) => h.newText), ["five\n"]);
  });

  it("undoing every hunk, last first, gives the original back; keeping every one, the current text", () => {
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 200; round++) {
      const lines = (n: number) => Array.from({ length: n }, () => `l${rand(6)}\n`).join("") + (rand(3) === 0 ? "tail" : "");
      const original = lines(rand(12));
      const current = lines(rand(12));
      const hunks = textHunks(original, current);
      assert.equal([...hunks].reverse().reduce(undoHunk, current), original, JSON.stringify({ original, current }));
      assert.equal([...hunks].reverse().reduce(keepHunk, original), current, JSON.stringify({ original, current }));
    }
  });

  it("counts lines added and removed", () => {
    assert.deepEqual(lineCounts(textHunks("a\nb\nc\n", "a\nB\nB2\n")), { added: 2, removed: 2 });
    assert.equal(lineCount("x"), 1);
    assert.equal(lineCount(""), 0);
  });
});
