import { strict as assert } from "node:assert";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AgentNotFoundError, INSTALL_COMMAND, resolveAgentBinary } from "../../src/client/binary";
import { SerialQueue } from "../../src/client/serialQueue";
import { Follower } from "../../src/follow";
import { agentArgs, agentEnv } from "../../src/settings";
import { moneyText, requestCost, usageText } from "../../src/status/usage";
import { escapeHtml } from "../../src/webview/dom";
import { renderMarkdown } from "../../src/webview/markdown";
import { linkTarget, type LinkTarget } from "../../src/chat/links";
import { stub } from "../stubs/control";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-misc-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function executable(p: string): string {
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, "#!/bin/sh\n");
  chmodSync(p, 0o755);
  return p;
}

describe("finding dsh-acp", () => {
  it("uses dsh.path alone when set", async () => {
    const p = executable(path.join(dir, "custom", "dsh-acp"));
    assert.equal(await resolveAgentBinary({ configuredPath: p, pathEnv: "" }), p);
    await assert.rejects(resolveAgentBinary({ configuredPath: path.join(dir, "missing") }), AgentNotFoundError);
  });

  it("searches PATH, then GOPATH/bin", async () => {
    const onPath = executable(path.join(dir, "bin1", "dsh-acp"));
    assert.equal(await resolveAgentBinary({ pathEnv: [path.join(dir, "empty"), path.dirname(onPath)].join(path.delimiter), goPath: async () => undefined }), onPath);
    const inGo = executable(path.join(dir, "go", "bin", "dsh-acp"));
    assert.equal(await resolveAgentBinary({ pathEnv: "", goPath: async () => path.join(dir, "go") }), inGo);
  });

  it("says how to install it when it is nowhere", async () => {
    await assert.rejects(resolveAgentBinary({ pathEnv: "", goPath: async () => undefined }), (e: Error) => e.message.includes(INSTALL_COMMAND));
  });
});

describe("settings", () => {
  it("passes the model and the key in the environment, the preset as a flag", () => {
    const s = { path: "", model: "deepseek-v4-pro", follow: true, permissionPreset: "read-only" };
    const env = agentEnv(s, "sk-1", { PATH: "/bin" });
    assert.deepEqual(env, { PATH: "/bin", DSH_MODEL: "deepseek-v4-pro", DSH_API_KEY: "sk-1" });
    assert.deepEqual(agentArgs(s), ["--permission", "read-only"]);
    assert.deepEqual(agentArgs({ ...s, permissionPreset: "" }), []);
    assert.deepEqual(agentEnv({ ...s, model: "" }, undefined, {}), {});
  });
});

describe("serial queue", () => {
  it("runs tasks in order, each after the previous settled", async () => {
    const q = new SerialQueue();
    const order: string[] = [];
    let release: () => void = () => undefined;
    void q.run(() => new Promise<void>((r) => (release = () => { order.push("a"); r(); })));
    void q.run(() => { order.push("b"); });
    void q.run(() => { throw new Error("c fails"); }).catch(() => order.push("c"));
    void q.run(() => { order.push("d"); });
    await Promise.resolve();
    assert.deepEqual(order, []);
    release();
    await q.idle();
    assert.deepEqual(order, ["a", "b", "c", "d"]);
  });
});

describe("follow-along", () => {
  it("reveals a location's file and 0-based row once per call, and not when off", async () => {
    const p = path.join(dir, "a.go");
    writeFileSync(p, "l0\nl1\nl2\nl3\n");
    let on = true;
    const f = new Follower(() => on);
    assert.equal(await f.follow("r1", [{ path: p, line: 2 }]), true);
    assert.equal(await f.follow("r1", [{ path: p, line: 2 }]), false);
    const shown = stub.shownDocuments[0];
    assert.equal(shown?.path, p);
    const sel = (shown.options as { selection: { start: { line: number } }; preserveFocus: boolean }).selection;
    assert.equal(sel.start.line, 2);
    on = false;
    assert.equal(await f.follow("r2", [{ path: p, line: 0 }]), false);
    assert.equal(stub.shownDocuments.length, 1);
  });
});

describe("status bar", () => {
  const cases: [Parameters<typeof usageText>[0], string][] = [
    [{ used: 1234, size: 128000 }, "dsh 1.2k/128.0k"],
    [{ used: 12, size: 1_000_000, cost: { amount: 0.01234, currency: "USD" } }, "dsh 12/1.0M · $0.0123"],
    [{ used: 0, size: 10, cost: { amount: 1, currency: "EUR" } }, "dsh 0/10 · EUR 1.0000"],
  ];
  for (const [u, want] of cases) it(want, () => assert.equal(usageText(u), want));
});

describe("markdown", () => {
  const cases: [string, string | RegExp][] = [
    ["<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"],
    ["**bold** and `x<y`", "<p><strong>bold</strong> and <code>x&lt;y</code></p>\n"],
    ["### Title", "<h3>Title</h3>\n"],
    ["- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"],
    ["1. a\n2. b", "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n"],
    ["see [the docs](https://example.com/d)", /<a href="https:\/\/example\.com\/d" data-testid="message-link">the docs<\/a>/],
    ["https://example.com/bare", /<a href="https:\/\/example\.com\/bare"/],
    ["[a](javascript:alert(1))", "<p>[a](javascript:alert(1))</p>\n"],
    ["```go\nfmt.Println(\"<hi>\")\n```", /<button class="code-copy"[^>]*>Copy<\/button><button class="code-insert" data-testid="code-insert" title="Insert at cursor">Insert<\/button><\/div><pre><code class="hljs" data-lang="go">fmt.Println\(<span class="hljs-string">&quot;&lt;hi&gt;&quot;<\/span>\)/],
    ["```nosuchlang\n<b>\n```", /<code class="hljs" data-lang="nosuchlang">&lt;b&gt;\n<\/code>/],
    ["```\nstreaming, not closed", /<pre><code class="hljs">streaming, not closed<\/code><\/pre>/],
  ];
  for (const [src, want] of cases) {
    it(JSON.stringify(src), () => (typeof want === "string" ? assert.equal(renderMarkdown(src), want) : assert.match(renderMarkdown(src), want)));
  }
  it("escapes quotes", () => assert.equal(escapeHtml(`"'&`), "&quot;&#39;&amp;"));
});

describe("answer links", () => {
  const cases: { href: string; want: LinkTarget | undefined }[] = [
    { href: "https://example.com/x", want: { kind: "external", uri: "https://example.com/x" } },
    { href: "mailto:a@example.com", want: { kind: "external", uri: "mailto:a@example.com" } },
    { href: "src/a.go", want: { kind: "file", path: "/ws/src/a.go", line: undefined } },
    { href: "src/a.go:12", want: { kind: "file", path: "/ws/src/a.go", line: 11 } },
    { href: "src/a.go#L3", want: { kind: "file", path: "/ws/src/a.go", line: 2 } },
    { href: "/ws/b.md", want: { kind: "file", path: "/ws/b.md", line: undefined } },
    { href: "../etc/passwd", want: undefined },
    { href: "/etc/passwd", want: undefined },
    { href: "command:workbench.action.terminal.new", want: undefined },
    { href: "vscode://file/etc/passwd", want: undefined },
  ];
  for (const c of cases) it(c.href, () => assert.deepEqual(linkTarget(c.href, "/ws"), c.want));
});

describe("a request's cost", () => {
  const usd = (amount: number) => ({ amount, currency: "USD" });
  const cases: { name: string; before: { amount: number; currency: string } | undefined; after: { amount: number; currency: string } | undefined; want: string | undefined }[] = [
    { name: "the difference", before: usd(0.5), after: usd(0.75), want: "$0.2500" },
    { name: "the first request", before: undefined, after: usd(0.01), want: "$0.0100" },
    { name: "unknown after", before: usd(0.5), after: undefined, want: undefined },
    { name: "another currency", before: usd(0.5), after: { amount: 1, currency: "EUR" }, want: undefined },
    { name: "a cost that went down (another session)", before: usd(0.5), after: usd(0.1), want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = requestCost(c.before, c.after);
      assert.equal(got ? moneyText(got) : undefined, c.want);
    });
  }
});
