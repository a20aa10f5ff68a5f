import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { sliceLines } from "../../src/fs/lines";
import { readTextFile } from "../../src/fs/readText";
import { deleteFile, writeWholeFile } from "../../src/fs/writeText";
import { stub } from "../stubs/control";
import type { EditOp } from "../stubs/vscode";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-fs-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("fs/read_text_file", () => {
  it("reads the open document's unsaved text, not the disk", async () => {
    const p = path.join(dir, "a.go");
    writeFileSync(p, "on disk\n");
    stub.openDocument(p, "unsaved\nedit\n");
    assert.deepEqual(await readTextFile({ sessionId: "s", path: p }), { content: "unsaved\nedit\n" });
  });

  it("reads the disk when no document is open", async () => {
    const p = path.join(dir, "b.txt");
    writeFileSync(p, "one\ntwo\nthree\n");
    assert.deepEqual(await readTextFile({ sessionId: "s", path: p }), { content: "one\ntwo\nthree\n" });
    assert.deepEqual(await readTextFile({ sessionId: "s", path: p, line: 2, limit: 1 }), { content: "two\n" });
  });

  it("answers resource-not-found for a missing file", async () => {
    await assert.rejects(readTextFile({ sessionId: "s", path: path.join(dir, "nope") }), (e: Error & { code?: number }) => e.code === -32002);
  });

  const slices: [string, number | undefined, number | undefined, string][] = [
    ["a\nb\nc", undefined, undefined, "a\nb\nc"],
    ["a\nb\nc", 2, undefined, "b\nc"],
    ["a\nb\nc", 1, 2, "a\nb\n"],
    ["a\nb\nc", 5, 1, ""],
    ["a\nb\nc", undefined, 0, ""],
  ];
  for (const [text, line, limit, want] of slices) {
    it(`slices line=${line} limit=${limit}`, () => assert.equal(sliceLines(text, line, limit), want));
  }
});

describe("fs/write_text_file", () => {
  it("replaces the whole open document in one WorkspaceEdit, then saves", async () => {
    const p = path.join(dir, "a.go");
    writeFileSync(p, "old\n");
    const doc = stub.openDocument(p, "old\nunsaved\n");
    await writeWholeFile(p, "new\n");
    assert.equal(stub.edits.length, 1);
    const ops = stub.edits[0]?.ops ?? [];
    assert.equal(ops.length, 1);
    const op = ops[0] as Extract<EditOp, { kind: "replace" }>;
    assert.equal(op.kind, "replace");
    assert.deepEqual([op.range.start.line, op.range.start.character, op.range.end.line, op.range.end.character], [0, 0, 2, 0]);
    assert.equal(doc.getText(), "new\n");
    assert.equal(doc.saves, 1);
    assert.equal(readFileSync(p, "utf8"), "new\n");
  });

  it("opens a closed file as a document and edits it", async () => {
    const p = path.join(dir, "b.txt");
    writeFileSync(p, "x");
    await writeWholeFile(p, "y");
    assert.equal(stub.edits[0]?.ops[0]?.kind, "replace");
    assert.equal(readFileSync(p, "utf8"), "y");
  });

  it("creates a new file through the edit", async () => {
    const p = path.join(dir, "sub", "new.sh");
    await writeWholeFile(p, "#!/bin/sh\n");
    assert.deepEqual(stub.edits[0]?.ops.map((o) => o.kind), ["createFile", "insert"]);
    assert.equal(readFileSync(p, "utf8"), "#!/bin/sh\n");
  });

  it("deletes through the edit", async () => {
    const p = path.join(dir, "gone.txt");
    writeFileSync(p, "x");
    await deleteFile(p);
    assert.equal(existsSync(p), false);
    assert.equal(stub.edits[0]?.ops[0]?.kind, "deleteFile");
  });
});
