import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import * as vscode from "vscode";
import type { ToWebview } from "../../src/chat/messages";
import { COMMANDS } from "../../src/commands";
import { InlineReview } from "../../src/review/inlineReview";
import { ReviewList } from "../../src/review/reviewList";
import { restoreFile } from "../../src/session/files";
import { FakeAgent, reviewing } from "../fakes/agent";
import { stub } from "../stubs/control";
import { StubTextEditor, type CodeLens, type TextDocument } from "../stubs/vscode";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-inline-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("per-hunk review in the editor", () => {
  it("shows each hunk with Keep / Undo; Undo reverts exactly that hunk and the agent hears of it", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    let redrawn = 0;
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir, () => redrawn++);
    const file = path.join(dir, "a.txt");
    const original = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const changed = "one\n2\n3\n4\n5\n6\n7\n8\nnine\n";
    writeFileSync(file, original);
    await c.prompt("change a.txt");
    await c.writeTextFile({ sessionId: "s1", path: file, content: changed });
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "w1", title: "Write", kind: "edit", status: "completed", content: [{ type: "diff", path: file, oldText: original, newText: changed }] } });
    assert.ok(redrawn > 0, "the inline review redraws when the list changes");

    const inline = new InlineReview((p) => c.reviewHunks(p));
    const doc = (await vscode.workspace.openTextDocument(vscode.Uri.file(file))) as unknown as TextDocument;
    const lenses = (await inline.provideCodeLenses(doc as unknown as vscode.TextDocument)) as unknown as CodeLens[];
    assert.deepEqual(lenses.map((l) => [l.command?.title, l.range.start.line]), [
      ["dsh: Keep file (+2 −2)", 0],
      ["Undo file", 0],
      ["Keep (+1 −1)", 0],
      ["Undo", 0],
      ["Keep (+1 −1)", 8],
      ["Undo", 8],
    ]);
    assert.equal(lenses[5]?.command?.command, COMMANDS.undoHunk);
    const editor = new StubTextEditor(doc);
    await inline.decorate(editor as unknown as vscode.TextEditor);
    const ranges = [...editor.decorations.values()].flat().map((d) => d.range.start.line);
    assert.deepEqual(ranges.sort(), [0, 8]);

    await c.undoHunk(file, 1);
    const after = doc.getText();
    assert.equal(after, "one\n2\n3\n4\n5\n6\n7\n8\n9\n", "only the second hunk went back");
    assert.equal(readFileSync(file, "utf8"), after, "saved");
    assert.equal((await c.reviewHunks(file))?.hunks.length, 1);

    await c.handle({ type: "reviewAll", action: "view" });
    const multi = stub.executed.find((e) => e.command === "vscode.changes");
    assert.ok(multi, "View all changes opens the multi-file diff editor");
    assert.deepEqual((multi.args[1] as vscode.Uri[][]).map((r) => r[0]?.fsPath), [file]);

    await c.keepHunk(file, 0);
    assert.equal(c.underReview(file), false, "nothing left to review");
    const rows = posted.filter((m) => m.type === "review").at(-1);
    assert.ok(rows?.type === "review" && rows.files.length === 0);

    await c.prompt("go on");
    const [words, note] = agent.prompts[1] ?? [];
    assert.deepEqual(words, { type: "text", text: "go on" }, "the user's words first");
    assert.ok(note?.type === "text");
    assert.match(note.text, /undid these parts/);
    assert.match(note.text, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, line 9: 1 line of yours undone`));
  });

  it("offers nothing for a file not under review", async () => {
    const inline = new InlineReview(async () => undefined);
    const file = path.join(dir, "b.txt");
    writeFileSync(file, "x\n");
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    assert.deepEqual(await inline.provideCodeLenses(doc), []);
  });
});
