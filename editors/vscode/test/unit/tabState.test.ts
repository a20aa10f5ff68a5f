import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { tabSession, tabState } from "../../src/chat/tabState";

describe("a tab's kept state", () => {
  it("keeps the session it shows, and nothing for a new conversation", () => {
    assert.deepEqual(tabState("s1"), { sessionId: "s1" });
    assert.deepEqual(tabState(undefined), {});
  });

  const cases: { name: string; state: unknown; want: string | undefined }[] = [
    { name: "a session", state: { sessionId: "s1" }, want: "s1" },
    { name: "a new conversation", state: {}, want: undefined },
    { name: "nothing kept", state: undefined, want: undefined },
    { name: "an empty id", state: { sessionId: "" }, want: undefined },
    { name: "not a string", state: { sessionId: 7 }, want: undefined },
    { name: "not an object", state: "s1", want: undefined },
  ];
  for (const c of cases) it(`reads ${c.name}`, () => assert.equal(tabSession(c.state), c.want));
});
