import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { SessionInfo } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import { type ChatController } from "../../src/session/controller";
import type { SessionTitles } from "../../src/session/history";
import { chatController, FakeAgent } from "../fakes/agent";
import { stub } from "../stubs/control";
import type { StubQuickPick } from "../stubs/vscode";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-history-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An agent with two stored sessions, which session/delete removes. */
class StoringAgent extends FakeAgent {
  stored: SessionInfo[] = [
    { sessionId: "old", cwd: "/ws", title: "Fix the parser", updatedAt: "2026-11-20T09:00:00Z" },
    { sessionId: "new", cwd: "/ws", title: "Add a flag", updatedAt: "2026-12-01T10:05:00Z" },
  ];
  override async listSessions(): Promise<{ sessions: SessionInfo[] }> {
    return { sessions: this.stored };
  }
  override async deleteSession(sessionId: string): Promise<void> {
    await super.deleteSession(sessionId);
    this.stored = this.stored.filter((s) => s.sessionId !== sessionId);
  }
}

function setup(agent: FakeAgent): { c: ChatController; posted: ToWebview[]; titles: Map<string, string> } {
  const posted: ToWebview[] = [];
  const titles = new Map<string, string>();
  const own: SessionTitles = { get: (id) => titles.get(id), set: (id, t) => (t === undefined ? titles.delete(id) : titles.set(id, t)) };
  const c = chatController(agent, posted, dir, { titles: own });
  return { c, posted, titles };
}

/** Scripts the QuickPicks shown, one step per showing; records what each listed. */
function script(steps: ((qp: StubQuickPick) => void)[]): { label: string; description?: string }[][] {
  const seen: { label: string; description?: string }[][] = [];
  stub.quickPickShown = (qp) => {
    seen.push(qp.items.map((i) => ({ label: i.label, ...(i.description === undefined ? {} : { description: i.description }) })));
    const step = steps.shift() ?? ((p: StubQuickPick) => p.hide());
    step(qp);
  };
  return seen;
}

describe("the conversations list", () => {
  it("lists the sessions newest first with their dates, searchable by title and date, and opens the one picked", async () => {
    const agent = new StoringAgent();
    const loaded: string[] = [];
    agent.replay = async (id) => void loaded.push(id);
    const { c } = setup(agent);
    const seen = script([(qp) => qp.accept("Fix the parser")]);
    await c.conversations();
    assert.deepEqual(seen[0]?.map((i) => i.label), ["Add a flag", "Fix the parser"]);
    const first = seen.at(0)?.at(0);
    assert.match(first?.description ?? "", /2026/);
    assert.deepEqual(loaded, ["old"]);
    assert.equal(c.currentSession, "old");
  });

  it("marks the conversation picked as the current one in the view's list", async () => {
    const agent = new StoringAgent();
    const { c, posted } = setup(agent);
    await c.loadSession("new");
    script([(qp) => qp.accept("Fix the parser")]);
    await c.conversations();
    const listed = posted.filter((m) => m.type === "sessions").at(-1);
    assert.equal(listed?.type === "sessions" ? listed.current : undefined, "old", "the dropdown shows the conversation opened");
  });

  it("says which conversations are open: in this view, or in another (picking that one brings its view forward)", async () => {
    const agent = new StoringAgent();
    const posted: ToWebview[] = [];
    let revealed = 0;
    const c = chatController(agent, posted, dir, { elsewhere: (id) => (id === "old" ? { reveal: () => (revealed += 1) } : undefined) });
    await c.loadSession("new");
    const seen = script([(qp) => qp.accept("Fix the parser")]);
    await c.conversations();
    assert.deepEqual(seen[0]?.map((i) => [i.label, /\((open[^)]*)\)/.exec(i.description ?? "")?.[1]]), [["Add a flag", "open"], ["Fix the parser", "open in another view"]]);
    assert.equal(revealed, 1, "the other view came forward");
    assert.equal(c.currentSession, "new", "this view keeps its own conversation");
  });

  it("renames a conversation: the title is kept by the extension and shown in the lists; empty gives the agent's back", async () => {
    const agent = new StoringAgent();
    const { c, posted, titles } = setup(agent);
    stub.inputBoxAnswer = "Parser work";
    const seen = script([(qp) => qp.press("Fix the parser", 0)]);
    await c.conversations();
    assert.equal(titles.get("old"), "Parser work");
    assert.deepEqual(seen[1]?.map((i) => i.label), ["Add a flag", "Parser work"], "the list shows again, renamed");
    const listed = posted.filter((m) => m.type === "sessions").at(-1);
    assert.ok(listed?.type === "sessions" && listed.sessions.some((s) => s.title === "Parser work"));
    stub.inputBoxAnswer = "";
    script([(qp) => qp.press("Parser work", 0)]);
    await c.conversations();
    assert.equal(titles.has("old"), false);
  });

  it("deletes a conversation with session/delete after a confirmation; deleting the open one clears the view", async () => {
    const agent = new StoringAgent();
    const { c, posted } = setup(agent);
    await c.loadSession("new");
    stub.warningAnswer = () => undefined;
    script([(qp) => qp.press("Add a flag", 1)]);
    await c.conversations();
    assert.deepEqual(agent.deleted, [], "not without the confirmation");
    stub.warningAnswer = (message) => (message.includes("Add a flag") ? "Delete" : undefined);
    const seen = script([(qp) => qp.press("Add a flag", 1)]);
    await c.conversations();
    assert.deepEqual(agent.deleted, ["new"]);
    assert.deepEqual(seen[1]?.map((i) => i.label), ["Fix the parser"]);
    assert.equal(c.currentSession, undefined);
    assert.ok(posted.some((m) => m.type === "reset" && m.sessionId === undefined));
  });

  it("keeps the list open when focus goes back to the chat view, each time it shows (only Escape or a choice closes it)", async () => {
    const agent = new StoringAgent();
    const { c } = setup(agent);
    stub.inputBoxAnswer = undefined;
    const kept: boolean[] = [];
    const seen = script([
      (qp) => {
        kept.push(qp.ignoreFocusOut);
        qp.press("Fix the parser", 0);
      },
      (qp) => {
        kept.push(qp.ignoreFocusOut);
        qp.hide();
      },
    ]);
    await c.conversations();
    assert.equal(seen.length, 2, "the list shows again after Rename's box is left");
    assert.deepEqual(kept, [true, true]);
  });

  it("offers no Delete when the agent does not advertise session/delete", async () => {
    const agent = new StoringAgent();
    agent.caps = { sessionCapabilities: { list: {} } };
    const { c } = setup(agent);
    let buttons = -1;
    stub.quickPickShown = (qp) => {
      buttons = qp.items[0]?.buttons?.length ?? -1;
      qp.hide();
    };
    await c.conversations();
    assert.equal(buttons, 1);
  });
});
