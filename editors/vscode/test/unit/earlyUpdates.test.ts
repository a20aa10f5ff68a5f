import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { AgentNotification } from "../../src/client/unstable";
import { EARLY_LIMIT, EarlyUpdates } from "../../src/session/earlyUpdates";

const note = (sessionId: string): AgentNotification => ({ sessionId, update: { sessionUpdate: "available_commands_update", availableCommands: [] } });

describe("early updates", () => {
  const cases: { name: string; run: (e: EarlyUpdates) => AgentNotification[]; want: string[] }[] = [
    { name: "nothing is kept before session/new is sent", run: (e) => (e.keep(note("s1")), e.stop("s1")), want: [] },
    { name: "the new session's updates are kept, others dropped", run: (e) => (e.start(), e.keep(note("s1")), e.keep(note("s9")), e.keep(note("s1")), e.stop("s1")), want: ["s1", "s1"] },
    { name: "a failed session/new hands back none", run: (e) => (e.start(), e.keep(note("s1")), e.stop()), want: [] },
    { name: "stopping forgets what was kept", run: (e) => (e.start(), e.keep(note("s1")), e.stop("s2"), e.stop("s1")), want: [] },
    {
      name: "at most EARLY_LIMIT are kept",
      run: (e) => {
        e.start();
        for (let i = 0; i < EARLY_LIMIT + 10; i++) e.keep(note("s1"));
        return e.stop("s1");
      },
      want: Array.from({ length: EARLY_LIMIT }, () => "s1"),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(c.run(new EarlyUpdates()).map((n) => n.sessionId), c.want);
    });
  }
});
