import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { initializeRequest } from "../../src/client/capabilities";
import { noticeText, showNotice } from "../../src/notices/notify";
import type { ToWebview } from "../../src/chat/messages";
import { routerFor as router } from "../fakes/updateRouter";
import { stub } from "../stubs/control";

beforeEach(() => stub.reset());

describe("the client's capabilities", () => {
  it("advertises notices and compaction as objects under session (what dsh-acp reads)", () => {
    const caps = initializeRequest("1.0.0").clientCapabilities;
    assert.deepEqual(caps?.session, { notices: {}, compaction: {} });
  });
});

describe("notices as VS Code notifications", () => {
  it("puts the description on the title's line", () => {
    assert.equal(noticeText({ title: "Rate limited" }), "dsh: Rate limited");
    assert.equal(noticeText({ title: "MCP server docs stopped", description: "  exit 1\n  boom \n" }), "dsh: MCP server docs stopped — exit 1 | boom");
  });

  it("shows each severity as its kind of message; an unknown one as information", () => {
    showNotice({ severity: "error", title: "e" });
    showNotice({ severity: "warning", title: "w" });
    showNotice({ severity: "info", title: "i" });
    showNotice({ severity: "_later", title: "x" });
    assert.deepEqual(stub.errors, ["dsh: e"]);
    assert.deepEqual(stub.warnings.map((w) => w.message), ["dsh: w"]);
    assert.deepEqual(stub.infos, ["dsh: i", "dsh: x"]);
  });

  const notice: SessionUpdate = { sessionUpdate: "notice", severity: "warning", title: "Language server gopls turned off" };

  it("notifies a live notice and notes it in the chat", async () => {
    const posted: ToWebview[] = [];
    await router(posted, false).apply(notice);
    assert.deepEqual(stub.warnings.map((w) => w.message), ["dsh: Language server gopls turned off"]);
    assert.deepEqual(posted, [{ type: "update", update: notice }]);
  });

  it("does not pop up a replayed notice (the chat's note is enough)", async () => {
    const posted: ToWebview[] = [];
    await router(posted, true).apply(notice);
    assert.equal(stub.warnings.length, 0);
    assert.equal(posted.length, 1);
  });
});
