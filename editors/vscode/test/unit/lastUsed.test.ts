import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { lastUsedFormat, lastUsedText } from "../../src/chat/lastUsed";

describe("when a conversation was last used", () => {
  const cases: { name: string; updatedAt: string | null | undefined; withYear: boolean; want: RegExp }[] = [
    { name: "a date, in the locale", updatedAt: "2026-12-01T10:05:00Z", withYear: false, want: /^\d{1,2} Dec, \d{2}:\d{2}$/ },
    { name: "with the year for History", updatedAt: "2026-12-01T10:05:00Z", withYear: true, want: /^\d{1,2} Dec 2026, \d{2}:\d{2}$/ },
    { name: "unknown", updatedAt: undefined, withYear: false, want: /^$/ },
    { name: "null", updatedAt: null, withYear: true, want: /^$/ },
    { name: "not a date", updatedAt: "yesterday-ish", withYear: false, want: /^$/ },
  ];
  for (const c of cases) {
    it(c.name, () => assert.match(lastUsedText(c.updatedAt, lastUsedFormat("en-GB", c.withYear)), c.want));
  }

  it("writes every date of a list with one formatter", () => {
    const format = lastUsedFormat("en-GB");
    const texts = ["2026-12-01T10:05:00Z", "2026-11-30T23:59:00Z"].map((d) => lastUsedText(d, format));
    assert.equal(new Set(texts).size, 2);
  });
});
