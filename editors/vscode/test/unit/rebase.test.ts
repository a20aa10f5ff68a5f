import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { lineCounts, textHunks } from "../../src/review/hunks";
import { rebaseOriginal, undoTarget } from "../../src/review/rebase";

describe("the user's own edits carried over to the original", () => {
  const cases: { name: string; original: string; written: string; current: string; base: string; agentHunks: number }[] = [
    { name: "no edit of the user's", original: "a\nb\nc\n", written: "a\nB\nc\n", current: "a\nB\nc\n", base: "a\nb\nc\n", agentHunks: 1 },
    { name: "a line added at the end, far from the agent's", original: "a\nb\nc\nd\n", written: "a\nB\nc\nd\n", current: "a\nB\nc\nd\nmine\n", base: "a\nb\nc\nd\nmine\n", agentHunks: 1 },
    { name: "a line removed above the agent's", original: "x\ny\na\nb\n", written: "x\ny\na\nB\n", current: "y\na\nB\n", base: "y\na\nb\n", agentHunks: 1 },
    { name: "below lines the agent added (the offsets move)", original: "a\nz\nq\n", written: "a\nnew1\nnew2\nz\nq\n", current: "a\nnew1\nnew2\nz\nQ\n", base: "a\nz\nQ\n", agentHunks: 1 },
    { name: "a line inserted right after the agent's", original: "a\nb\nc\n", written: "a\nB\nc\n", current: "a\nB\nmine\nc\n", base: "a\nb\nmine\nc\n", agentHunks: 1 },
    { name: "the agent's own line changed by the user stays the agent's hunk", original: "a\nb\nc\n", written: "a\nB\nc\n", current: "a\nBee\nc\n", base: "a\nb\nc\n", agentHunks: 1 },
    { name: "several edits around two hunks of the agent's", original: "1\n2\n3\n4\n5\n6\n", written: "1\nTWO\n3\n4\nFIVE\n6\n", current: "0\n1\nTWO\n3\n4.5\nFIVE\n6\n7\n", base: "0\n1\n2\n3\n4.5\n5\n6\n7\n", agentHunks: 2 },
    { name: "no final newline, kept", original: "a\nb", written: "A\nb", current: "A\nb\nmine", base: "a\nb\nmine", agentHunks: 1 },
    { name: "CRLF, kept", original: "a\r\nb\r\nc\r\n", written: "a\r\nB\r\nc\r\n", current: "a\r\nB\r\nc\r\nmine\r\n", base: "a\r\nb\r\nc\r\nmine\r\n", agentHunks: 1 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const base = rebaseOriginal(c.original, c.written, c.current);
      assert.equal(base, c.base);
      const hunks = textHunks(base, c.current);
      assert.equal(hunks.length, c.agentHunks, "the hunks left are the agent's");
      const agent = lineCounts(textHunks(c.original, c.written));
      if (c.base !== c.original || c.current === c.written) assert.deepEqual(lineCounts(hunks), agent, "counted as the agent changed them");
    });
  }
});

describe("what undoing a whole file writes, and whether it loses the user's edits", () => {
  const cases: { name: string; original: string | null; written: string | undefined; current: string | undefined; text: string | null; loses: boolean }[] = [
    { name: "untouched since the agent's write: the original", original: "a\nb\n", written: "a\nB\n", current: "a\nB\n", text: "a\nb\n", loses: false },
    { name: "the agent's write not known: the original", original: "a\nb\n", written: undefined, current: "x\n", text: "a\nb\n", loses: false },
    { name: "their line outside the agent's: kept, nothing asked", original: "a\nb\nc\n", written: "a\nB\nc\n", current: "a\nB\nc\nmine\n", text: "a\nb\nc\nmine\n", loses: false },
    { name: "their edit of the agent's line: asked, the rest kept", original: "a\nb\nc\nd\n", written: "a\nB\nc\nd\n", current: "a\nBee\nc\nd\nmine\n", text: "a\nb\nc\nd\nmine\n", loses: true },
    { name: "a created file they edited: asked, deleted", original: null, written: "new\n", current: "new\nmine\n", text: null, loses: true },
    { name: "a created file as the agent left it: deleted", original: null, written: "new\n", current: "new\n", text: null, loses: false },
    { name: "a file they deleted: asked, the original", original: "a\n", written: "A\n", current: undefined, text: "a\n", loses: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(undoTarget(c.original, c.written, c.current), { text: c.text, losesUserEdits: c.loses });
    });
  }
});
