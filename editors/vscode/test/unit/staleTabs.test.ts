import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import * as vscode from "vscode";
import { DiffContentProvider, DIFF_SCHEME } from "../../src/diff/provider";
import { closeStaleTabs, isStaleTab } from "../../src/diff/staleTabs";
import { stub } from "../stubs/control";

const own = (uri: vscode.Uri): boolean => uri.scheme === "dsh-diff" || uri.scheme === "dsh-plan";
const file = vscode.Uri.file("/ws/a.txt");
const before = vscode.Uri.from({ scheme: "dsh-diff", path: "/ws/a.txt", query: "1" });

describe("the tabs a reload leaves stale", () => {
  beforeEach(() => stub.reset());

  const cases: { name: string; input: unknown; want: boolean }[] = [
    { name: "a diff against dsh's before", input: { original: before, modified: file }, want: true },
    { name: "the multi-file changes view", input: { textDiffs: [{ original: file, modified: file }, { original: before, modified: file }] }, want: true },
    { name: "the plan document", input: { uri: vscode.Uri.from({ scheme: "dsh-plan", path: "/Plan.md" }) }, want: true },
    { name: "the user's own file", input: { uri: file }, want: false },
    { name: "the user's own diff", input: { original: file, modified: vscode.Uri.file("/ws/b.txt") }, want: false },
    { name: "a webview or terminal tab", input: { viewType: "markdown.preview" }, want: false },
    { name: "no input", input: undefined, want: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(isStaleTab(c.input, own), c.want));

  it("closes only them", async () => {
    const mine = { input: { original: before, modified: file }, label: "a.txt (before dsh ↔ now)" };
    const theirs = { input: { uri: file }, label: "a.txt" };
    stub.tabs = [mine, theirs];
    await closeStaleTabs(own);
    assert.deepEqual(stub.tabs, [theirs]);
  });

  it("closes a restored diff once it asks for a text the provider lost, and keeps the diffs it still holds", async () => {
    let closing: Promise<void> = Promise.resolve();
    const provider: DiffContentProvider = new DiffContentProvider(() => {
      closing = closeStaleTabs((u) => u.scheme === DIFF_SCHEME && !provider.knows(u));
    });
    const live = provider.register("/ws/a.txt", "old");
    const lost = { input: { original: vscode.Uri.from({ scheme: DIFF_SCHEME, path: "/ws/a.txt", query: "42" }), modified: file }, label: "a.txt (restored)" };
    const kept = { input: { original: live, modified: file }, label: "a.txt (before dsh ↔ now)" };
    stub.tabs = [lost, kept];
    assert.equal(provider.provideTextDocumentContent(live), "old");
    assert.deepEqual(stub.tabs, [lost, kept], "a known text closes nothing");
    assert.equal(provider.provideTextDocumentContent(vscode.Uri.from({ scheme: DIFF_SCHEME, path: "/ws/a.txt", query: "99" })), "");
    await closing;
    assert.deepEqual(stub.tabs, [kept]);
  });
});
