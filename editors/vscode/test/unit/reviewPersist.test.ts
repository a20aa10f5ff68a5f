import { strict as assert } from "node:assert";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import * as vscode from "vscode";
import { undoneNote } from "../../src/chat/editorNote";
import type { ToWebview } from "../../src/chat/messages";
import { currentText } from "../../src/fs/documents";
import { activate } from "../../src/extension";
import { blobFiles } from "../../src/review/blobFiles";
import { EDIT_SETTLE_MS, EditFollower } from "../../src/review/editFollower";
import { rejectionNote, ReviewList } from "../../src/review/reviewList";
import type { ReviewState } from "../../src/review/reviewState";
import { KEPT_REVIEW_TTL_MS, MAX_KEPT_REVIEW, MAX_KEPT_TEXT, REVIEW_INDEX_KEY, StoredReviews, textName, type Memento, type TextBlobs } from "../../src/review/storedReviews";
import { UNDO_ANYWAY, restoreFile } from "../../src/session/files";
import { FakeAgent, reviewing } from "../fakes/agent";
import { completedEdit, FakeMemento, lastReviewRows, promptTexts, userEdits } from "../fakes/review";
import { stub } from "../stubs/control";

// Text blobs in memory, counting the writes.
class FakeBlobs implements TextBlobs {
  readonly files = new Map<string, string>();
  writes = 0;
  async read(name: string): Promise<string | undefined> {
    return this.files.get(name);
  }
  async write(name: string, text: string): Promise<void> {
    this.writes++;
    this.files.set(name, text);
  }
  async remove(name: string): Promise<void> {
    this.files.delete(name);
  }
  async names(): Promise<string[]> {
    return [...this.files.keys()];
  }
}

let dir: string;
let storage: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-persist-"));
  storage = mkdtempSync(path.join(tmpdir(), "dsh-vscode-storage-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(storage, { recursive: true, force: true });
});

const completed = completedEdit;
const lastRows = lastReviewRows;
const texts = promptTexts;

/** One window of the Agent view on conversation s1: its review kept in memento and the storage directory's texts. */
async function window(memento: Memento, blobs: TextBlobs = blobFiles(vscode.Uri.file(path.join(storage, "review")))) {
  const stored = new StoredReviews(memento, blobs);
  const agent = new FakeAgent();
  const posted: ToWebview[] = [];
  const review = new ReviewList(restoreFile, stored.forChat(() => "view"));
  const c = reviewing(agent, review, posted, dir);
  await c.loadReview(await stored.load("view"));
  await c.loadSession("s1"); // the Agent view reopens its last conversation
  return { stored, agent, posted, review, c };
}

/** A window reload: the editor's documents are gone (what the files hold stays on disk). */
function reload(): void {
  stub.reset();
}

/** The first window: the agent changed a.txt's first and last lines and created new.txt; the user undid nothing yet. */
async function agentChanged(memento: Memento) {
  const w = await window(memento);
  const [a, created] = [path.join(dir, "a.txt"), path.join(dir, "new.txt")];
  writeFileSync(a, "one\ntwo\nthree\n");
  await w.c.prompt("change a, make new");
  await w.c.writeTextFile({ sessionId: "s1", path: a, content: "ONE\ntwo\nTHREE\n" });
  await w.c.sessionUpdate(completed("e1", a, "one\ntwo\nthree\n", "ONE\ntwo\nTHREE\n"));
  await w.c.writeTextFile({ sessionId: "s1", path: created, content: "made\n" });
  await w.c.sessionUpdate(completed("w1", created, null, "made\n"));
  await w.stored.settled();
  return { ...w, a, created };
}

describe("the review across a window reload", () => {
  it("comes back with the same files, hunks and counts; Undo of a hunk after the reload puts exactly its lines back and is told", async () => {
    const memento = new FakeMemento();
    const first = await agentChanged(memento);
    await first.c.undoHunk(first.a, 1); // THREE back to three, told at the next prompt
    await first.stored.settled();
    reload();

    const next = await window(memento);
    assert.deepEqual(lastRows(next.posted), [
      { path: first.a, created: false, added: 1, removed: 1 },
      { path: first.created, created: true, added: 1, removed: 0 },
    ]);
    assert.deepEqual((await next.c.reviewHunks(first.a))?.hunks.map((h) => [h.oldText, h.newText]), [["one\n", "ONE\n"]]);
    await next.c.undoHunk(first.a, 0);
    assert.equal(readFileSync(first.a, "utf8"), "one\ntwo\nthree\n");
    assert.ok(!lastRows(next.posted).some((r) => r.path === first.a), "nothing of it is left to review");
    await next.c.prompt("go on");
    assert.deepEqual(texts(next.agent)[0], ["go on", `\n\n${undoneNote([{ path: first.a, line: 3, lines: 1 }, { path: first.a, line: 1, lines: 1 }])}`], "the undo before the reload is told too");
  });

  it("keeps a rejection not yet told: the next prompt of its conversation after the reload takes it", async () => {
    const memento = new FakeMemento();
    const first = await agentChanged(memento);
    await first.c.handle({ type: "review", action: "reject", path: first.created });
    assert.equal(existsSync(first.created), false);
    await first.stored.settled();
    reload();
    const next = await window(memento);
    assert.deepEqual(lastRows(next.posted).map((r) => r.path), [first.a]);
    await next.c.prompt("go on");
    assert.deepEqual(texts(next.agent)[0], ["go on", `\n\n${rejectionNote([first.created])}`]);
    await next.stored.settled();
    reload();
    const third = await window(memento);
    await third.c.prompt("again");
    assert.deepEqual(texts(third.agent)[0], ["again"], "told once");
  });

  it("reviews a file the user edited while the window was closed against the original, and Reject undoes the agent's lines alone, keeping theirs without asking", async () => {
    const memento = new FakeMemento();
    const first = await agentChanged(memento);
    reload();
    writeFileSync(first.a, "ONE\nmine\nTHREE\n"); // by hand, the window closed
    const next = await window(memento);
    // Their line between the agent's two is theirs: only the agent's two lines count.
    assert.deepEqual(lastRows(next.posted).find((r) => r.path === first.a), { path: first.a, created: false, added: 2, removed: 2 });
    await next.c.handle({ type: "review", action: "reject", path: first.a });
    assert.equal(stub.warnings.length, 0, "nothing of theirs is at stake: no question");
    assert.equal(readFileSync(first.a, "utf8"), "one\nmine\nthree\n");
    assert.ok(!lastRows(next.posted).some((r) => r.path === first.a), "and it leaves the list");
  });

  it("asks before a Reject after the reload would lose the user's edit of the agent's own line", async () => {
    const memento = new FakeMemento();
    const first = await agentChanged(memento);
    reload();
    writeFileSync(first.a, "ONE, mine\ntwo\nTHREE\n"); // by hand, the window closed
    const next = await window(memento);
    stub.warningAnswer = () => undefined;
    await next.c.handle({ type: "review", action: "reject", path: first.a });
    assert.equal(stub.warnings.length, 1, "the modal asks");
    assert.equal(readFileSync(first.a, "utf8"), "ONE, mine\ntwo\nTHREE\n", "dismissed: their text stays");
    assert.ok(lastRows(next.posted).some((r) => r.path === first.a), "and it stays listed");
    stub.warningAnswer = () => UNDO_ANYWAY;
    await next.c.handle({ type: "review", action: "reject", path: first.a });
    assert.equal(readFileSync(first.a, "utf8"), "one\ntwo\nthree\n");
  });

  it("drops a file the user deleted, or put back, while the window was closed; a created file still holding the agent's text is rejected by deleting it", async () => {
    const memento = new FakeMemento();
    const first = await agentChanged(memento);
    const b = path.join(dir, "b.txt");
    writeFileSync(b, "b0\n");
    await first.c.writeTextFile({ sessionId: "s1", path: b, content: "b1\n" });
    await first.c.sessionUpdate(completed("e2", b, "b0\n", "b1\n"));
    await first.stored.settled();
    reload();
    unlinkSync(first.a);
    writeFileSync(b, "b0\n");
    const next = await window(memento);
    assert.deepEqual(lastRows(next.posted), [{ path: first.created, created: true, added: 1, removed: 0 }]);
    assert.deepEqual(next.review.files().map((f) => f.path), [first.created]);
    assert.equal(existsSync(first.a), false, "nothing is written back");
    await next.c.handle({ type: "review", action: "reject", path: first.created });
    assert.equal(existsSync(first.created), false);
    assert.equal(stub.warnings.length, 0);
  });

  it("writes each text once, however often the list changes, and removes the texts nothing names any more", async () => {
    const memento = new FakeMemento();
    const blobs = new FakeBlobs();
    const w = await window(memento, blobs);
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "old\n");
    await w.c.prompt("edit");
    await w.c.writeTextFile({ sessionId: "s1", path: a, content: "new\n" });
    for (let i = 0; i < 5; i++) await w.c.sessionUpdate(completed(`e${i}`, a, "old\n", "new\n"));
    await w.stored.settled();
    assert.deepEqual([...blobs.files.keys()].sort(), [textName("old\n"), textName("new\n")].sort());
    assert.equal(blobs.writes, 2);
    await w.c.handle({ type: "review", action: "accept", path: a });
    await w.stored.settled();
    assert.deepEqual([...blobs.files.keys()], []);
    assert.deepEqual(memento.get(REVIEW_INDEX_KEY), {}, "an empty review leaves the index");
  });

  it("removes, when the window opens, the texts a save cut short left behind", async () => {
    const blobs = new FakeBlobs();
    blobs.files.set("orphan", "left behind");
    blobs.files.set(`${textName("x")}.part`, "x");
    const stored = new StoredReviews(new FakeMemento(), blobs);
    assert.equal(await stored.load("view"), undefined);
    assert.deepEqual([...blobs.files.keys()], []);
  });

  it("does not give back a change whose kept text is damaged: it is said as not kept", async () => {
    const memento = new FakeMemento();
    const first = await agentChanged(memento);
    reload();
    const dirOfTexts = path.join(storage, "review");
    writeFileSync(path.join(dirOfTexts, textName("one\ntwo\nthree\n")), "half");
    const next = await window(memento);
    assert.deepEqual(lastRows(next.posted).map((r) => r.path), [first.created]);
    assert.ok(next.posted.some((m) => m.type === "notice" && m.text.includes("a.txt did not survive the window reload")));
    assert.ok(readdirSync(dirOfTexts).every((n) => !n.endsWith(".part")));
  });

  const caps: { name: string; sizes: number[]; kept: number[] }[] = [
    { name: "a file larger than the cap of one text is not kept", sizes: [MAX_KEPT_TEXT + 1, 10], kept: [1] },
    // Each file is a text at the cap and a line: fifteen fit in the review's cap, not sixteen.
    { name: "the files past the cap of a whole review are not kept", sizes: Array<number>(17).fill(MAX_KEPT_TEXT), kept: [...Array(15).keys()] },
  ];
  for (const tt of caps) {
    it(`caps what is kept: ${tt.name}, and says so after the reload`, async () => {
      const memento = new FakeMemento();
      const blobs = new FakeBlobs();
      const stored = new StoredReviews(memento, blobs);
      const changes = tt.sizes.map((n, i) => ({ path: path.join(dir, `f${i}.txt`), original: String.fromCharCode(97 + i).repeat(n), latest: `${i}\n`, written: `${i}\n` }));
      stored.forChat(() => "view").save({ changes, rejected: [], undone: [] });
      await stored.settled();
      const back = await new StoredReviews(memento, blobs).load("view");
      const paths = changes.map((c) => c.path);
      assert.deepEqual(back?.changes.map((c) => c.path), tt.kept.map((i) => paths[i]));
      assert.deepEqual(back.tooLarge, paths.filter((_, i) => !tt.kept.includes(i)));
      const total = [...blobs.files.values()].reduce((n, t) => n + t.length, 0);
      assert.ok(total <= MAX_KEPT_REVIEW, `kept ${total} characters`);
      const posted: ToWebview[] = [];
      const shown = reviewing(new FakeAgent(), new ReviewList(restoreFile), posted, dir);
      await shown.loadReview(back);
      const lost = paths.filter((_, i) => !tt.kept.includes(i)).map((p) => path.basename(p));
      assert.ok(posted.some((m) => m.type === "notice" && m.text.includes(`the review of ${lost.join(", ")} did not survive the window reload (too large to keep)`)));
    });
  }

  it("forgets, when the window opens, a review nobody saved for KEPT_REVIEW_TTL_MS (a closed tab's), texts and all", async () => {
    const memento = new FakeMemento();
    const blobs = new FakeBlobs();
    let now = 1_000_000;
    const clock = (): number => now;
    const change = (name: string): ReviewState => ({ changes: [{ path: `/w/${name}`, original: `${name}0`, latest: `${name}1`, written: `${name}1`, conversation: "s1" }], rejected: [], undone: [] });
    const first = new StoredReviews(memento, blobs, clock);
    first.forChat(() => "tab:closed").save(change("a"));
    first.forChat(() => "view").save(change("b"));
    await first.settled();
    now += KEPT_REVIEW_TTL_MS / 2;
    // The Agent view takes its review back (and so saves it): it stays young.
    const second = new StoredReviews(memento, blobs, clock);
    const list = new ReviewList(async () => true, second.forChat(() => "view"));
    list.load((await second.load("view")) ?? { changes: [], rejected: [], undone: [] });
    await second.settled();
    now += KEPT_REVIEW_TTL_MS / 2 + 1;
    const third = new StoredReviews(memento, blobs, clock);
    assert.equal(await third.load("tab:closed"), undefined, "the closed tab's review is gone");
    assert.deepEqual((await third.load("view"))?.changes.map((c) => c.path), ["/w/b"]);
    assert.deepEqual((await blobs.names()).sort(), [textName("b0"), textName("b1")].sort(), "its texts went with it");
  });

  it("moves a tab's review with the conversation it shows", async () => {
    const memento = new FakeMemento();
    const stored = new StoredReviews(memento, new FakeBlobs());
    let key = "tab:s1";
    const store = stored.forChat(() => key);
    const state: ReviewState = { changes: [{ path: "/w/a", original: "a0", latest: "a1", written: "a1", conversation: "s1" }], rejected: [], undone: [] };
    store.save(state);
    key = "tab:s2";
    store.save(state);
    await stored.settled();
    assert.deepEqual(Object.keys((memento.get(REVIEW_INDEX_KEY) as object | undefined) ?? {}), ["tab:s2"]);
    assert.deepEqual((await stored.load("tab:s2"))?.changes, state.changes);
  });
});

describe("the review's counts follow the user's edits", () => {

  it("recounts a file's row and redraws the inline review after a hand edit of the agent's lines (the user's own lines are not counted); an edit back to the original drops it, as Keep would", async () => {
    const memento = new FakeMemento();
    let redrawn = 0;
    const stored = new StoredReviews(memento, new FakeBlobs());
    const review = new ReviewList(restoreFile, stored.forChat(() => "view"));
    const posted: ToWebview[] = [];
    const c = reviewing(new FakeAgent(), review, posted, dir, () => {
      redrawn++;
    });
    await c.loadReview(undefined);
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "one\ntwo\n");
    await c.prompt("edit");
    await c.writeTextFile({ sessionId: "s1", path: a, content: "ONE\nTWO\n" });
    await c.sessionUpdate(completed("e1", a, "one\ntwo\n", "ONE\nTWO\n"));
    assert.deepEqual(lastRows(posted).map((r) => [r.added, r.removed]), [[2, 2]]);
    userEdits(a, "ONE\n");
    const before = redrawn;
    await c.followReviewEdits();
    assert.deepEqual(lastRows(posted).map((r) => [r.added, r.removed]), [[1, 2]], "the agent's line the user deleted is no longer counted");
    assert.ok(redrawn > before, "the inline review redraws");
    userEdits(a, "ONE\nTWO\n\nmine\n");
    await c.followReviewEdits();
    assert.deepEqual(lastRows(posted).map((r) => [r.added, r.removed]), [[2, 2]], "the user's own lines are not the agent's");
    userEdits(a, "one\ntwo\n");
    await c.followReviewEdits();
    assert.deepEqual(lastRows(posted), []);
    assert.equal(c.underReview(a), false);
    await stored.settled();
    assert.equal(await stored.load("view"), undefined, "and it is not kept for the next window");
    assert.equal(await currentText(a), "one\ntwo\n");
  });

  it("waits for the typing to pause: a burst of edits of a file gives one update", (t) => {
    t.mock.timers.enable({ apis: ["setTimeout"] });
    const settled: string[] = [];
    const f = new EditFollower((p) => settled.push(p), 100);
    f.edited("/w/a");
    t.mock.timers.tick(60);
    f.edited("/w/a");
    f.edited("/w/b");
    t.mock.timers.tick(60);
    assert.deepEqual(settled, []);
    t.mock.timers.tick(40);
    assert.deepEqual(settled, ["/w/a", "/w/b"]);
    f.edited("/w/a");
    f.dispose();
    t.mock.timers.tick(200);
    assert.deepEqual(settled, ["/w/a", "/w/b"]);
  });
});

// An extension context with a workspace storage and workspaceState.
function context(memento: FakeMemento): vscode.ExtensionContext {
  return {
    subscriptions: [] as { dispose(): unknown }[],
    extensionUri: vscode.Uri.file("/ext"),
    extension: { packageJSON: { version: "0.1.0" } },
    workspaceState: memento,
    storageUri: vscode.Uri.file(storage),
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose: () => undefined }) },
  } as unknown as vscode.ExtensionContext;
}

describe("the review's wiring in the extension", () => {
  it("reads the review the last window kept back into the Agent view, and follows a burst of the user's edits of it once they pause", async (t) => {
    const memento = new FakeMemento();
    const a = path.join(dir, "a.txt");
    writeFileSync(a, "ONE\ntwo\n");
    const last = new StoredReviews(memento, blobFiles(vscode.Uri.joinPath(vscode.Uri.file(storage), "review")));
    last.forChat(() => "view").save({ changes: [{ path: a, original: "one\ntwo\n", latest: "ONE\ntwo\n", written: "ONE\ntwo\n", conversation: "s1" }], rejected: [], undone: [] });
    await last.settled();

    const ctx = context(memento);
    const api = activate(ctx);
    await api.reviewLoaded;
    assert.ok(api.controller.underReview(a));
    assert.deepEqual((await api.controller.reviewHunks(a))?.hunks.map((h) => [h.oldText, h.newText]), [["one\n", "ONE\n"]]);

    t.mock.timers.enable({ apis: ["setTimeout"] });
    let followed = 0;
    api.controller.followReviewEdits = async () => {
      followed++;
    };
    const doc = stub.openDocument(a, "ONE\ntwo\nthree\n");
    for (let i = 0; i < 3; i++) stub.changeDocument.fire({ document: doc, contentChanges: [{}] });
    stub.changeDocument.fire({ document: stub.openDocument(path.join(dir, "other.txt"), "x"), contentChanges: [{}] });
    t.mock.timers.tick(EDIT_SETTLE_MS - 1);
    assert.equal(followed, 0, "not while typing");
    t.mock.timers.tick(1);
    assert.equal(followed, 1, "once for the burst; nothing for a file not under review");
    for (const s of ctx.subscriptions) s.dispose();
  });
});
