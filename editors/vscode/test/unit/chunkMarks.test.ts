// The marks of each prompt's first answer chunk (src/client/chunkMarks.ts)
// that the end-to-end latency probe reads: which chunk is marked, and the
// client's hops (arrived, handed to the handlers, settled) in order.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { AgentClient } from "../../src/client/agentClient";
import { FirstChunkMarks, type ChunkMark } from "../../src/client/chunkMarks";
import type { AgentNotification } from "../../src/client/unstable";

const AGENT = path.join(__dirname, "..", "fakes", "acpAgent.js");

const chunk = (sessionId: string, text = "hi"): AgentNotification => ({ sessionId, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });
const thought = (sessionId: string): AgentNotification => ({ sessionId, update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } } });

type Step = { arm: string } | { disarm: string } | { arrive: AgentNotification };

describe("FirstChunkMarks", () => {
  const cases: { name: string; steps: Step[]; want: string[] }[] = [
    { name: "the first answer chunk after arm is marked", steps: [{ arm: "s" }, { arrive: chunk("s", "a") }], want: ["s"] },
    { name: "nothing is marked before arm", steps: [{ arrive: chunk("s") }], want: [] },
    { name: "only the first chunk of a prompt", steps: [{ arm: "s" }, { arrive: thought("s") }, { arrive: chunk("s") }, { arrive: chunk("s") }], want: ["s"] },
    { name: "a subagent's chunk is its own session's, not the prompt's", steps: [{ arm: "s" }, { arrive: chunk("child") }, { arrive: chunk("s") }], want: ["s"] },
    { name: "a prompt that ended without a chunk leaves the next one unmarked", steps: [{ arm: "s" }, { disarm: "s" }, { arrive: chunk("s") }], want: [] },
    { name: "each prompt's first chunk", steps: [{ arm: "s" }, { arrive: chunk("s") }, { arm: "s" }, { arrive: chunk("s") }], want: ["s", "s"] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const marks: ChunkMark[] = [];
      const m = new FirstChunkMarks((mark) => marks.push(mark));
      for (const s of c.steps) {
        if ("arm" in s) m.arm(s.arm);
        else if ("disarm" in s) m.disarm(s.disarm);
        else {
          const track = m.arrived(s.arrive);
          track?.applied();
          track?.settled();
        }
      }
      assert.deepEqual(
        marks.map((k) => k.sessionId),
        c.want,
      );
    });
  }

  it("marks when the chunk arrived, was handed to the handlers and had settled, reported once settled", () => {
    let t = 100;
    const marks: ChunkMark[] = [];
    const m = new FirstChunkMarks((mark) => marks.push(mark), () => t);
    m.arm("s");
    const track = m.arrived(chunk("s"));
    assert.ok(track);
    t = 130;
    track.applied();
    t = 145;
    assert.deepEqual(marks, []);
    track.settled();
    assert.deepEqual(marks, [{ sessionId: "s", arrivedAt: 100, appliedAt: 130, settledAt: 145 }]);
  });
});

describe("AgentClient's first-chunk marks against a stand-in agent", { timeout: 60_000 }, () => {
  let dir: string;
  let client: AgentClient | undefined;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-marks-"));
  });
  afterEach(async () => {
    await client?.dispose();
    client = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("reports each prompt's first answer chunk once its handler settled", async () => {
    const marks: ChunkMark[] = [];
    // Each update's handling, as it starts and ends, and the marks so far at each.
    const seen: string[] = [];
    client = new AgentClient({
      binary: process.execPath,
      args: [AGENT],
      cwd: dir,
      env: () => process.env,
      version: "test",
      onFirstChunk: (m) => {
        marks.push(m);
        seen.push("mark");
      },
      handlers: {
        sessionUpdate: async (n) => {
          seen.push(`start ${n.update.sessionUpdate}`);
          await Promise.resolve();
          seen.push(`end ${n.update.sessionUpdate}`);
        },
        requestPermission: () => Promise.reject(new Error("not asked")),
        createElicitation: () => Promise.reject(new Error("not asked")),
        readTextFile: () => Promise.reject(new Error("not asked")),
        writeTextFile: () => Promise.reject(new Error("not asked")),
      },
    });
    const { sessionId } = await client.newSession(dir);
    seen.length = 0;
    assert.equal((await client.prompt(sessionId, [{ type: "text", text: "one" }])).stopReason, "end_turn");
    assert.equal((await client.prompt(sessionId, [{ type: "text", text: "two" }])).stopReason, "end_turn");
    assert.equal(marks.length, 2, JSON.stringify(seen));
    for (const m of marks) {
      assert.equal(m.sessionId, sessionId);
      assert.ok(m.arrivedAt <= m.appliedAt && m.appliedAt <= m.settledAt, JSON.stringify(m));
    }
    // The mark comes right after the first answer chunk's handler has ended, once per prompt.
    const chunkEnds = seen.flatMap((s, i) => (s === "end agent_message_chunk" && seen[i + 1] === "mark" ? [i] : []));
    assert.equal(chunkEnds.length, 2, JSON.stringify(seen));
  });
});
