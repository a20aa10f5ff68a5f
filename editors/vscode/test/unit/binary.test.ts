import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AgentNotFoundError, binaryName, resolveAgentBinary } from "../../src/client/binary";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-binary-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(p: string, mode: number): string {
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, "#!/bin/sh\n");
  chmodSync(p, mode);
  return p;
}

describe("the binary a platform .vsix carries", () => {
  const cases: { name: string; configured: boolean; bundled: boolean; onPath: boolean; want: "configured" | "bundled" | "path" }[] = [
    { name: "dsh.path wins over the bundled binary", configured: true, bundled: true, onPath: true, want: "configured" },
    { name: "the bundled binary wins over PATH", configured: false, bundled: true, onPath: true, want: "bundled" },
    { name: "PATH when the .vsix carries none", configured: false, bundled: false, onPath: true, want: "path" },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const paths = {
        configured: file(path.join(dir, "custom", "dsh-acp"), 0o755),
        bundled: path.join(dir, "ext", "bin", "dsh-acp"),
        path: path.join(dir, "path", "dsh-acp"),
      };
      if (c.bundled) file(paths.bundled, 0o755);
      if (c.onPath) file(paths.path, 0o755);
      const got = await resolveAgentBinary({
        configuredPath: c.configured ? paths.configured : "",
        bundledDir: path.dirname(paths.bundled),
        pathEnv: path.dirname(paths.path),
        platform: "linux",
        goPath: async () => undefined,
      });
      assert.equal(got, paths[c.want]);
    });
  }

  it("makes a bundled binary that lost its mode executable", async () => {
    const bundled = file(path.join(dir, "ext", "bin", "dsh-acp"), 0o644);
    assert.equal(await resolveAgentBinary({ bundledDir: path.dirname(bundled), pathEnv: "", platform: "linux", goPath: async () => undefined }), bundled);
    assert.equal(statSync(bundled).mode & 0o111, 0o111);
  });

  it("names the bundled place among those tried", async () => {
    const bundledDir = path.join(dir, "ext", "bin");
    await assert.rejects(resolveAgentBinary({ bundledDir, pathEnv: "", platform: "linux", goPath: async () => undefined }), (e: unknown) => {
      assert.ok(e instanceof AgentNotFoundError);
      assert.deepEqual(e.tried.slice(0, 2), [path.join(bundledDir, "dsh-acp"), "PATH"]);
      return true;
    });
  });

  it("looks for dsh-acp.exe on Windows", () => {
    assert.equal(binaryName("win32"), "dsh-acp.exe");
    assert.equal(binaryName("darwin"), "dsh-acp");
  });
});
