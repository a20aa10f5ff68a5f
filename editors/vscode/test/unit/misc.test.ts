import { strict as assert } from "node:assert";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AgentNotFoundError, INSTALL_COMMAND, resolveAgentBinary } from "../../src/client/binary";
import { SerialQueue } from "../../src/client/serialQueue";
import { Follower } from "../../src/follow";
import { agentArgs, agentEnv } from "../../src/settings";
import { usageText } from "../../src/status/usage";
import { escapeHtml, renderMarkdown } from "../../src/webview/markdown";
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
  const cases: [string, string][] = [
    ["<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"],
    ["**bold** and `x<y`", "<p><strong>bold</strong> and <code>x&lt;y</code></p>"],
    ["# Title", "<h3>Title</h3>"],
    ["- a\n- b", "<ul><li>a</li><li>b</li></ul>"],
    ["1. a\n2. b", "<ol><li>a</li><li>b</li></ol>"],
    ["```go\nfmt.Println(\"<hi>\")\n```", '<pre><code data-lang="go">fmt.Println(&quot;&lt;hi&gt;&quot;)</code></pre>'],
    ["```\nstreaming, not closed", "<pre><code>streaming, not closed</code></pre>"],
    ["[a](javascript:x)", "<p>[a](javascript:x)</p>"],
  ];
  for (const [src, want] of cases) it(JSON.stringify(src), () => assert.equal(renderMarkdown(src), want));
  it("escapes quotes", () => assert.equal(escapeHtml(`"'&`), "&quot;&#39;&amp;"));
});
