import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import type * as vscode from "vscode";
import { DiffContentProvider, DIFF_SCHEME, diffUri, openDiff } from "../../src/diff/provider";
import { stub } from "../stubs/control";

describe("diff documents", () => {
  beforeEach(() => stub.reset());

  it("names the virtual document after the file, keyed by the query", () => {
    const u = diffUri("/w/pkg/a.go", "7");
    assert.equal(u.scheme, DIFF_SCHEME);
    assert.equal(u.path, "/w/pkg/a.go");
    assert.equal(u.query, "7");
    assert.equal(u.toString(), "dsh-diff:/w/pkg/a.go?7");
  });

  it("serves each registered text under its own key", () => {
    const p = new DiffContentProvider();
    const a = p.register("/w/a.go", "first");
    const b = p.register("/w/a.go", "second");
    assert.notEqual(a.query, b.query);
    assert.equal(p.provideTextDocumentContent(a), "first");
    assert.equal(p.provideTextDocumentContent(b), "second");
    assert.equal(p.provideTextDocumentContent(diffUri("/w/a.go", "unknown")), "");
  });

  it("opens vscode.diff of the old text against the file", async () => {
    const p = new DiffContentProvider();
    await openDiff(p, "/w/a.go", "old text");
    const call = stub.executed[0];
    assert.equal(call?.command, "vscode.diff");
    const [left, right, title] = call.args as [vscode.Uri, vscode.Uri, string];
    assert.equal(left.scheme, DIFF_SCHEME);
    assert.equal(p.provideTextDocumentContent(left), "old text");
    assert.equal(right.scheme, "file");
    assert.equal(right.fsPath, "/w/a.go");
    assert.match(title, /a\.go/);
  });

  it("opens a created file as it is, with nothing to compare", async () => {
    const p = new DiffContentProvider();
    await openDiff(p, "/w/new.go", null);
    const call = stub.executed[0];
    assert.equal(call?.command, "vscode.open");
    const [uri, options] = call.args as [vscode.Uri, unknown];
    assert.equal(uri.fsPath, "/w/new.go");
    assert.deepEqual(options, { preview: true });
  });
});
