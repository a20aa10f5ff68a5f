// The shared corpus (testdata/cases.json) over the built binary: each case
// driven by the official ACP TypeScript SDK client(), checked the same way
// the Go runner checks it, golden frames included.

import { test } from "node:test";
import assert from "node:assert/strict";
import { agentSuite, startAgent } from "./helpers.mjs";
import { loadCases, agentOptions, layoutOf, verify, goldenUpdates, readGolden } from "./corpus.mjs";

const TIMEOUT = 60_000;

agentSuite("the shared corpus over stdio", () => {
  for (const c of loadCases()) {
    test(`${c.name}: ${c.about}`, { timeout: TIMEOUT }, async () => {
      const a = await startAgent(agentOptions(c));
      const sid = await a.newSession();
      const stops = [];
      for (const text of c.prompts) stops.push((await a.prompt(sid, text)).stopReason);
      const lines = a.stdoutLines();
      const msgs = lines.map((l) => JSON.parse(l));
      const layout = layoutOf(a);
      assert.deepEqual(verify(c, layout, msgs, stops), []);
      if (c.golden) assert.equal(goldenUpdates(lines, layout, sid), readGolden(c));
    });
  }
});
