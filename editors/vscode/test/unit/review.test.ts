import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { ToWebview } from "../../src/chat/messages";
import { undoneNote } from "../../src/chat/editorNote";
import { currentText } from "../../src/fs/documents";
import { rejectionNote, ReviewList } from "../../src/review/reviewList";
import { deleteFile } from "../../src/fs/writeText";
import { UNDO_ANYWAY, restoreFile } from "../../src/session/files";
import { FakeAgent, reviewing } from "../fakes/agent";
import { completedEdit, lastReviewRows, promptTexts, userEdits } from "../fakes/review";
import { stub } from "../stubs/control";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-review-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("review list", () => {
  it("keeps the first original of a file across a turn's diffs", () => {
    const r = new ReviewList(async () => true);
    r.record({ path: "/w/a", oldText: "v0", newText: "v1" });
    r.record({ path: "/w/a", oldText: "v1", newText: "v2" });
    r.record({ path: "/w/b", oldText: null, newText: "new" });
    assert.deepEqual(r.files(), [
      { path: "/w/a", original: "v0", latest: "v2" },
      { path: "/w/b", original: null, latest: "new" },
    ]);
  });

  it("keeps the whole file the editor held before the first write, not a card's fragment", () => {
    const r = new ReviewList(async () => true);
    r.noteOriginal("/w/config.txt", "the whole\nold file\n");
    r.record({ path: "/w/config.txt", oldText: null, newText: "overwritten\n" }); // a write's pending card
    r.noteOriginal("/w/new.txt", null); // did not exist
    r.record({ path: "/w/new.txt", oldText: null, newText: "fresh\n" });
    r.record({ path: "/w/edit.txt", oldText: "fragment", newText: "FRAGMENT" });
    r.noteOriginal("/w/edit.txt", "before fragment after"); // noted after the card: it wins
    assert.deepEqual(r.files(), [
      { path: "/w/config.txt", original: "the whole\nold file\n", latest: "overwritten\n" },
      { path: "/w/new.txt", original: null, latest: "fresh\n" },
      { path: "/w/edit.txt", original: "before fragment after", latest: "FRAGMENT" },
    ]);
  });

  it("keeps an unreviewed change listed in later turns, with the file's text before the agent's first change as its original", () => {
    const r = new ReviewList(async () => true);
    r.noteOriginal("/w/a", "v0");
    r.record({ path: "/w/a", oldText: "v0", newText: "v1" }, "s1");
    r.record({ path: "/w/b", oldText: "b0", newText: "b1" }, "s1");
    r.startTurn();
    assert.deepEqual(r.files().map((f) => f.path), ["/w/a", "/w/b"], "the next turn still lists them");
    r.noteOriginal("/w/a", "v1"); // the later turn writes a again
    r.record({ path: "/w/a", oldText: "v1", newText: "v2" }, "s1");
    r.accept("/w/b");
    r.startTurn();
    r.noteOriginal("/w/b", "b1"); // kept, then written anew: its original is the kept text
    r.record({ path: "/w/b", oldText: "b1", newText: "b2" }, "s2");
    assert.deepEqual(r.files(), [
      { path: "/w/a", original: "v0", latest: "v2", conversation: "s1" },
      { path: "/w/b", original: "b1", latest: "b2", conversation: "s2" },
    ]);
  });

  it("tells each conversation what the user undid of its own changes, at its next prompt", async () => {
    const r = new ReviewList(async () => true);
    r.record({ path: "/w/a", oldText: "a0", newText: "a1" }, "s1");
    r.record({ path: "/w/b", oldText: "b0", newText: "b1" }, "s2");
    await r.reject("/w/a");
    r.undidPart({ path: "/w/b", line: 3, lines: 1 }, "b0 and more");
    assert.equal(r.takeRejectionNote("s2"), undoneNote([{ path: "/w/b", line: 3, lines: 1 }]));
    assert.equal(r.takeRejectionNote("s2"), undefined);
    assert.equal(r.takeRejectionNote("s1"), rejectionNote(["/w/a"]));
  });

  it("ends the rejection note with a blank line, so the prompt does not run into it", () => {
    assert.match(rejectionNote(["/w/a.txt"]), /\n\n$/);
  });

  it("accepts without touching the file; rejects by restoring the original", async () => {
    const a = path.join(dir, "a.txt");
    const b = path.join(dir, "b.txt");
    const c = path.join(dir, "c.txt");
    writeFileSync(a, "changed a");
    writeFileSync(b, "changed b");
    writeFileSync(c, "created c");
    const r = new ReviewList(restoreFile);
    r.record({ path: a, oldText: "orig a", newText: "changed a" });
    r.record({ path: b, oldText: "orig b", newText: "changed b" });
    r.record({ path: c, oldText: null, newText: "created c" });
    r.accept(a);
    await r.reject(b);
    await r.reject(c);
    assert.equal(readFileSync(a, "utf8"), "changed a");
    assert.equal(readFileSync(b, "utf8"), "orig b");
    assert.equal(existsSync(c), false);
    assert.deepEqual(r.files(), []);
    assert.equal(r.takeRejectionNote(), rejectionNote([b, c]));
    assert.equal(r.takeRejectionNote(), undefined);
  });

  it("accepts and rejects all", async () => {
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "changed");
    const r = new ReviewList(restoreFile);
    r.record({ path: a, oldText: "orig", newText: "changed" });
    await r.rejectAll();
    assert.equal(readFileSync(a, "utf8"), "orig");
    r.record({ path: a, oldText: "orig", newText: "again" });
    r.acceptAll();
    assert.deepEqual(r.files(), []);
    assert.match(r.takeRejectionNote() ?? "", /a\.txt/);
  });
});

describe("the review list's state", () => {
  const diff = (p: string) => [{ type: "diff" as const, path: p, oldText: "old\n", newText: "new\n" }];

  it("lists an edit once applied, not while it awaits approval or when refused", async () => {
    const agent = new FakeAgent();
    const review = new ReviewList(restoreFile);
    const c = reviewing(agent, review, [], dir);
    await c.prompt("edit");
    const a = path.join(dir, "a.txt");
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit", kind: "edit", status: "pending", content: diff(a) } });
    assert.deepEqual(review.files(), [], "awaiting approval");
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call_update", toolCallId: "e1", status: "completed" } });
    assert.deepEqual(review.files().map((f) => f.path), [a]);
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "e2", title: "Edit", kind: "edit", status: "pending", content: diff(path.join(dir, "b.txt")) } });
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call_update", toolCallId: "e2", status: "failed" } });
    assert.deepEqual(review.files().map((f) => f.path), [a], "a refused edit is not listed");
  });

  it("does not list the files /undo restored", async () => {
    const review = new ReviewList(restoreFile);
    const c = reviewing(new FakeAgent(), review, [], dir);
    await c.prompt("/undo");
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId: "undo-7", title: "Restored 1 file", kind: "edit", status: "in_progress", rawInput: { command: "/undo", files: ["a.txt"] } } });
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call_update", toolCallId: "undo-7", status: "completed", content: diff(path.join(dir, "a.txt")) } });
    assert.deepEqual(review.files(), []);
  });

  it("offers nothing to review for a session replayed by session/load, even while the load is slow", async () => {
    const agent = new FakeAgent();
    const review = new ReviewList(restoreFile);
    const posted: ToWebview[] = [];
    const c = reviewing(agent, review, posted, dir);
    const created = path.join(dir, "created.txt");
    writeFileSync(created, "made by the agent in an earlier session\n");
    let during: number | undefined;
    agent.replay = async (sessionId) => {
      await c.sessionUpdate({ sessionId, update: { sessionUpdate: "tool_call", toolCallId: "w1", title: "Write", kind: "edit", status: "completed", content: [{ type: "diff", path: created, oldText: null, newText: "made\n" }] } });
      await c.sessionUpdate({ sessionId, update: { sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", kind: "execute", status: "in_progress", _meta: { terminal_info: { terminal_id: "b1" } } } });
      during = review.files().length;
    };
    await c.loadSession("old");
    assert.equal(during, 0, "nothing listed during the replay");
    assert.equal(stub.terminals.length, 0);
    assert.ok(!posted.some((m) => m.type === "review" && m.files.length > 0));
    assert.equal(existsSync(created), true);
  });
});

describe("the rejection note", () => {
  it("goes before the next prompt, once", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const review = new ReviewList(restoreFile);
    const controller = reviewing(agent, review, posted, dir);
    await controller.prompt("write a.txt");
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "by the agent");
    await controller.sessionUpdate({
      sessionId: "s1",
      update: { sessionUpdate: "tool_call", toolCallId: "w1", title: "Write a.txt", kind: "edit", status: "completed", content: [{ type: "diff", path: a, oldText: null, newText: "by the agent" }] },
    });
    assert.deepEqual(review.files().map((f) => f.path), [a]);
    assert.ok(posted.some((m) => m.type === "review" && m.files.length === 1));
    await controller.handle({ type: "review", action: "reject", path: a });
    assert.equal(existsSync(a), false);
    await controller.prompt("go on");
    await controller.prompt("and again");
    const texts = agent.prompts.map((p) => p.map((b) => (b.type === "text" ? b.text : "")));
    assert.deepEqual(texts[0], ["write a.txt"]);
    assert.deepEqual(texts[1], ["go on", `\n\n${rejectionNote([a])}`], "the words first, then the note on its own lines");
    assert.deepEqual(texts[2], ["and again"]);
  });
});

describe("unreviewed changes across turns and conversations", () => {
  const completed = completedEdit;
  const lastRows = lastReviewRows;
  const texts = promptTexts;
  // A chat whose agent, in its first turn, wrote a.txt (holding before) with its "one" made "ONE".
  const agentChangedFirstLine = async (before: string) => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    const a = path.join(dir, "a.txt");
    writeFileSync(a, before);
    await c.prompt("edit the first line");
    await c.writeTextFile({ sessionId: "s1", path: a, content: before.replace("one", "ONE") });
    await c.sessionUpdate(completed("e1", a, "one\n", "ONE\n"));
    return { agent, posted, c, a };
  };

  it("keeps a change listed in the next turns; a later edit of the file diffs against the first original, and undoing an older turn's hunk is told", async () => {
    const { agent, posted, c, a } = await agentChangedFirstLine("one\ntwo\nthree\n");
    await c.prompt("now the last line");
    assert.deepEqual(lastRows(posted).map((r) => [r.path, r.added, r.removed]), [[a, 1, 1]], "still listed in the next turn");
    await c.writeTextFile({ sessionId: "s1", path: a, content: "ONE\ntwo\nTHREE\n" });
    await c.sessionUpdate(completed("e2", a, "three\n", "THREE\n"));
    const now = await c.reviewHunks(a);
    assert.deepEqual(now?.hunks.map((h) => [h.oldText, h.newText]), [["one\n", "ONE\n"], ["three\n", "THREE\n"]], "both turns' hunks, against the file before the first");
    assert.deepEqual(lastRows(posted).map((r) => [r.path, r.added, r.removed]), [[a, 2, 2]]);
    await c.undoHunk(a, 0); // the first turn's
    assert.equal(await currentText(a), "one\ntwo\nTHREE\n");
    assert.deepEqual((await c.reviewHunks(a))?.hunks.map((h) => h.newText), ["THREE\n"]);
    await c.prompt("go on");
    assert.deepEqual(texts(agent)[2], ["go on", `\n\n${undoneNote([{ path: a, line: 1, lines: 1 }])}`]);
  });


  it("never takes back the user's own edits: a file they edited between the agent's writes is reviewed from their text", async () => {
    const { c, a } = await agentChangedFirstLine("one\ntwo\nthree\n");
    userEdits(a, "ONE\nmine\nthree\n"); // before the next turn
    await c.prompt("now the last line");
    await c.writeTextFile({ sessionId: "s1", path: a, content: "ONE\nmine\nTHREE\n" });
    await c.sessionUpdate(completed("e2", a, "three\n", "THREE\n"));
    assert.deepEqual((await c.reviewHunks(a))?.hunks.map((h) => [h.oldText, h.newText]), [["three\n", "THREE\n"]], "only the agent's change since the user's edit");
    await c.handle({ type: "review", action: "reject", path: a });
    assert.equal(await currentText(a), "ONE\nmine\nthree\n", "Reject puts back the user's text, not the file before the agent's first change");
    assert.equal(stub.warnings.length, 0, "nothing of the user's is lost, so nothing is asked");
  });

  it("never offers the user's own lines as the agent's: Keep and Undo of the agent's hunks leave them, and nothing is asked", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "one\ntwo\nthree\n");
    await c.prompt("edit lines one and three");
    await c.writeTextFile({ sessionId: "s1", path: a, content: "ONE\ntwo\nTHREE\n" });
    await c.sessionUpdate(completed("e1", a, "one\ntwo\nthree\n", "ONE\ntwo\nTHREE\n"));
    userEdits(a, "ONE\ntwo\nTHREE\nmine\n");
    assert.deepEqual((await c.reviewHunks(a))?.hunks.map((h) => h.newText), ["ONE\n", "THREE\n"], "their line is not a hunk");
    await c.keepHunk(a, 0);
    assert.deepEqual((await c.reviewHunks(a))?.hunks.map((h) => h.newText), ["THREE\n"], "and does not become one after a Keep");
    await c.undoHunk(a, 0);
    assert.equal(await currentText(a), "ONE\ntwo\nthree\nmine\n", "Undo took back the agent's line alone");
    assert.equal(c.underReview(a), false, "nothing of the agent's is left to review");
    assert.equal(stub.warnings.length, 0, "nothing of theirs was at stake: no question");
  });

  it("undoes a file the user edited since the agent's write without asking when their edits lie outside the agent's lines, and keeps them", async () => {
    const { posted, c, a } = await agentChangedFirstLine("one\ntwo\n");
    userEdits(a, "ONE\ntwo\nmine\n");
    await c.handle({ type: "review", action: "reject", path: a });
    assert.equal(stub.warnings.length, 0, "nothing of theirs is at stake: no question");
    assert.equal(await currentText(a), "one\ntwo\nmine\n", "the agent's line undone, theirs kept");
    assert.equal(lastRows(posted).some((r) => r.path === a), false);
  });

  const atStake: { name: string; original: string | null; written: string; current: string | undefined; question: RegExp; dismissed: string | undefined; undone: string | undefined }[] = [
    { name: "a created file the user edited", original: null, written: "new\n", current: "new\nmine\n", question: /^a\.txt changed after the agent's edit\. Undoing deletes the file the agent created, and your own edits to it are lost\.$/, dismissed: "new\nmine\n", undone: undefined },
    { name: "a file the user deleted", original: "one\n", written: "ONE\n", current: undefined, question: /^a\.txt was deleted after the agent's edit\. Undoing writes it back as it was before the agent's change\.$/, dismissed: undefined, undone: "one\n" },
  ];
  for (const tt of atStake) {
    it(`asks before undoing ${tt.name}, and does nothing when dismissed`, async () => {
      const a = path.join(dir, "a.txt");
      if (tt.current !== undefined) writeFileSync(a, tt.current);
      assert.equal(await restoreFile(a, tt.original, tt.written), false);
      assert.match(stub.warnings[0]?.message ?? "", tt.question);
      assert.equal(await currentText(a), tt.dismissed);
      stub.warningAnswer = () => UNDO_ANYWAY;
      assert.equal(await restoreFile(a, tt.original, tt.written), true);
      assert.equal(await currentText(a), tt.undone);
    });
  }

  const afterWrite: { name: string; answer: string | undefined; want: string; listed: boolean }[] = [
    { name: "kept when the question is dismissed", answer: undefined, want: "ONE, mine\ntwo\nmore\n", listed: true },
    { name: "the agent's line put back when the user says Undo anyway, their line further down kept", answer: UNDO_ANYWAY, want: "one\ntwo\nmore\n", listed: false },
  ];
  for (const tt of afterWrite) {
    it(`asks before a Reject would lose the user's edit of the agent's own line: ${tt.name}`, async () => {
      const { agent, posted, c, a } = await agentChangedFirstLine("one\ntwo\n");
      userEdits(a, "ONE, mine\ntwo\nmore\n");
      stub.warningAnswer = () => tt.answer;
      await c.handle({ type: "review", action: "reject", path: a });
      assert.equal(stub.warnings.length, 1);
      assert.match(stub.warnings[0]?.message ?? "", /a\.txt changed after the agent's edit\. Undoing puts back the lines the agent changed as they were, and your own edits on or right beside them are lost\./);
      assert.deepEqual(stub.warnings[0]?.options, { modal: true });
      assert.equal(await currentText(a), tt.want);
      assert.equal(lastRows(posted).some((r) => r.path === a), tt.listed);
      // Called off, nothing was undone: no card reads rejected, and the agent is told nothing.
      assert.equal(posted.some((m) => m.type === "reviewed"), !tt.listed);
      await c.prompt("next");
      assert.equal(promptTexts(agent).at(-1)?.some((t) => t.includes("a.txt")), !tt.listed);
    });
  }

  it("keeps the previous conversation's changes listed under its title in a new one; their undo is told to that conversation", async () => {
    class Agent extends FakeAgent {
      private n = 0;
      override async newSession(): Promise<{ sessionId: string }> {
        return { sessionId: `s${++this.n}` };
      }
      override async listSessions(): Promise<{ sessions: { sessionId: string; cwd: string; title: string }[] }> {
        return { sessions: [{ sessionId: "s1", cwd: dir, title: "Fix the parser" }] };
      }
    }
    const agent = new Agent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    const [a, b] = [path.join(dir, "a.txt"), path.join(dir, "b.txt")];
    writeFileSync(a, "old a\n");
    await c.prompt("edit a");
    await c.writeTextFile({ sessionId: "s1", path: a, content: "new a\n" });
    await c.sessionUpdate(completed("e1", a, "old a\n", "new a\n"));
    await c.refreshSessions();
    await c.newSession();
    await c.prompt("make b");
    await c.writeTextFile({ sessionId: "s2", path: b, content: "b\n" });
    await c.sessionUpdate({ ...completed("w1", b, null, "b\n"), sessionId: "s2" });
    assert.deepEqual(lastRows(posted), [
      { path: b, created: true, added: 1, removed: 0 },
      { path: a, created: false, added: 1, removed: 1, conversation: "Fix the parser" },
    ]);
    assert.ok(c.underReview(a), "its Keep / Undo stay in the editor");
    await c.handle({ type: "review", action: "reject", path: a });
    assert.equal(readFileSync(a, "utf8"), "old a\n");
    await c.prompt("more in the new conversation");
    assert.deepEqual(texts(agent)[2], ["more in the new conversation"], "not told of another conversation's change");
    await c.loadSession("s1");
    await c.prompt("back in the first");
    assert.deepEqual(texts(agent)[3], ["back in the first", `\n\n${rejectionNote([a])}`]);
  });
});

describe("View All File Changes", () => {
  const opened = (): string[] => {
    const multi = stub.executed.filter((e) => e.command === "vscode.changes").at(-1);
    return multi ? (multi.args[1] as { fsPath: string }[][]).map((r) => r[0]?.fsPath ?? "") : [];
  };
  const completed = completedEdit;

  it("lists only the files the agent's change left changed: not one rejected, written back, undone by hand, or created and gone", async () => {
    const agent = new FakeAgent();
    const posted: ToWebview[] = [];
    const c = reviewing(agent, new ReviewList(restoreFile), posted, dir);
    const [kept, rejected, back, byHand, gone] = ["kept.txt", "rejected.txt", "back.txt", "byhand.txt", "gone.txt"].map((n) => path.join(dir, n)) as [string, string, string, string, string];
    for (const p of [kept, rejected, back, byHand]) writeFileSync(p, "old\n");
    await c.prompt("change them");
    for (const [i, p] of [kept, rejected, back, byHand].entries()) {
      await c.writeTextFile({ sessionId: "s1", path: p, content: "new\n" });
      await c.sessionUpdate(completed(`e${i}`, p, "old\n", "new\n"));
    }
    await c.writeTextFile({ sessionId: "s1", path: gone, content: "made\n" });
    await c.sessionUpdate(completed("w1", gone, null, "made\n"));
    // The agent writes back.txt as it was; the user puts byhand.txt back and deletes gone.txt.
    await c.writeTextFile({ sessionId: "s1", path: back, content: "old\n" });
    await c.sessionUpdate(completed("e9", back, "new\n", "old\n"));
    const doc = stub.documents.find((d) => d.uri.fsPath === byHand);
    assert.ok(doc);
    doc.text = "old\n";
    await deleteFile(gone);
    await c.handle({ type: "review", action: "reject", path: rejected });
    // A late update of the rejected call (its card gains a note) does not bring it back.
    await c.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "tool_call_update", toolCallId: "e1", status: "completed", content: [{ type: "diff", path: rejected, oldText: "old\n", newText: "new\n" }] } });

    await c.handle({ type: "reviewAll", action: "view" });
    assert.deepEqual(opened(), [kept]);
    const title = stub.executed.filter((e) => e.command === "vscode.changes").at(-1)?.args[0];
    assert.equal(title, "dsh: changes");
    const rows = posted.filter((m) => m.type === "review").at(-1);
    assert.ok(rows?.type === "review");
    assert.deepEqual(rows.files.map((f) => f.path), [kept]);
  });

  it("shows a created file as added, with no original side, beside a changed one's", async () => {
    const c = reviewing(new FakeAgent(), new ReviewList(restoreFile), [], dir);
    const [changed, created] = ["changed.txt", "created.txt"].map((n) => path.join(dir, n)) as [string, string];
    writeFileSync(changed, "old\n");
    await c.prompt("change one, make one");
    await c.writeTextFile({ sessionId: "s1", path: changed, content: "new\n" });
    await c.sessionUpdate(completed("e1", changed, "old\n", "new\n"));
    await c.writeTextFile({ sessionId: "s1", path: created, content: "made\n" });
    await c.sessionUpdate(completed("w1", created, null, "made\n"));
    await c.handle({ type: "reviewAll", action: "view" });
    const multi = stub.executed.filter((e) => e.command === "vscode.changes").at(-1);
    const rows = (multi?.args[1] ?? []) as ({ fsPath: string; scheme: string } | undefined)[][];
    assert.deepEqual(rows.map((r) => [r[0]?.fsPath, r[1]?.scheme, r[2]?.fsPath]), [
      [changed, "dsh-diff", changed],
      [created, undefined, created],
    ]);
  });

  it("brings an open changes editor up to date after Keep / Undo: opened again with the files left when in sight, else closed", async () => {
    const c = reviewing(new FakeAgent(), new ReviewList(restoreFile), [], dir);
    const [a, b, d] = ["a.txt", "b.txt", "d.txt"].map((n) => path.join(dir, n)) as [string, string, string];
    await c.prompt("change them");
    for (const [i, p] of [a, b, d].entries()) {
      await c.writeTextFile({ sessionId: "s1", path: p, content: "new\n" });
      await c.sessionUpdate(completed(`e${i}`, p, null, "new\n"));
    }
    await c.handle({ type: "reviewAll", action: "view" });
    const shown = { input: {}, label: "dsh: changes (3 files)", isActive: true };
    stub.tabs = [shown];
    await c.handle({ type: "review", action: "accept", path: a });
    assert.deepEqual(opened(), [b, d], "opened again with the files left");
    assert.ok(!stub.tabs.includes(shown), "the stale one is closed");
    const behind = { input: {}, label: "dsh: changes (2 files)", isActive: false };
    stub.tabs = [behind];
    const views = stub.executed.filter((e) => e.command === "vscode.changes").length;
    await c.handle({ type: "review", action: "reject", path: b });
    assert.deepEqual(stub.tabs, [], "out of sight: closed");
    assert.equal(stub.executed.filter((e) => e.command === "vscode.changes").length, views, "not opened again");
  });

  it("opens nothing when the turn's changes all came to nothing", async () => {
    const c = reviewing(new FakeAgent(), new ReviewList(restoreFile), [], dir);
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "same\n");
    await c.prompt("touch a.txt");
    await c.sessionUpdate(completed("e1", a, "same\n", "same\n"));
    await c.handle({ type: "reviewAll", action: "view" });
    assert.deepEqual(opened(), []);
  });
});
