import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { SessionConfigOption, SessionInfo } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import { Chats, type ChatPlace } from "../../src/session/chats";
import type { ChatController } from "../../src/session/controller";
import type { SessionMemory } from "../../src/session/sessions";
import { UsageStatus } from "../../src/status/usage";
import { chatController, chatIn, FakeAgent } from "../fakes/agent";
import { stub } from "../stubs/control";

let dir: string;
beforeEach(() => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-chats-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One agent for every chat: each session/new gives the next id, and tells its commands before it answers. */
class SharedAgent extends FakeAgent {
  private n = 0;
  chats: Chats | undefined;
  override async newSession(): Promise<{ sessionId: string; configOptions?: SessionConfigOption[] | null }> {
    const sessionId = `s${++this.n}`;
    await this.chats?.sessionUpdate({ sessionId, update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: `only-${sessionId}`, description: "" }] } });
    return { sessionId };
  }
}

const chatOn = (agent: FakeAgent, chats: Chats) => chatIn(agent, chats, dir);

describe("several conversations at once", () => {
  it("routes each session's updates, writes and approvals to the chat showing it; a new session's early updates reach its chat only", async () => {
    const chats = new Chats();
    const agent = new SharedAgent();
    agent.chats = chats;
    const one = chatOn(agent, chats);
    const two = chatOn(agent, chats);
    await one.c.newSession();
    await two.c.newSession();
    assert.deepEqual([one.c.currentSession, two.c.currentSession], ["s1", "s2"]);
    const commands = (p: ToWebview[]) => p.flatMap((m) => (m.type === "commands" ? m.commands.map((x) => x.name) : []));
    assert.deepEqual(commands(one.posted), ["only-s1"]);
    assert.deepEqual(commands(two.posted), ["only-s2"]);

    await chats.sessionUpdate({ sessionId: "s2", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "for two" } } });
    const said = (p: ToWebview[]) => p.some((m) => m.type === "update" && m.update.sessionUpdate === "agent_message_chunk");
    assert.equal(said(one.posted), false);
    assert.equal(said(two.posted), true);

    const a = path.join(dir, "a.txt");
    writeFileSync(a, "old\n");
    await chats.writeTextFile({ sessionId: "s2", path: a, content: "new\n" });
    await chats.sessionUpdate({ sessionId: "s2", update: { sessionUpdate: "tool_call", toolCallId: "e1", title: "Edit", kind: "edit", status: "completed", content: [{ type: "diff", path: a, oldText: "old\n", newText: "new\n" }] } });
    assert.deepEqual(two.review.files().map((f) => f.path), [a]);
    assert.deepEqual(one.review.files(), []);
    assert.equal(chats.reviewing(a), two.c, "Keep / Undo in the editor act on the chat reviewing the file");

    stub.warningAnswer = () => new Promise<undefined>(() => undefined); // the modal stays open: the card answers
    const asked = chats.requestPermission({ sessionId: "s1", toolCall: { toolCallId: "b1", title: "Run" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }] }, new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    assert.ok(one.posted.some((m) => m.type === "permission"));
    assert.ok(!two.posted.some((m) => m.type === "permission"));
    await one.c.handle({ type: "permission", requestId: one.posted.flatMap((m) => (m.type === "permission" ? [m.requestId] : []))[0] ?? "", optionId: "ok" });
    assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "ok" } });
  });

  it("shows the usage of the chat in front only, and hands the front on when a chat closes", async () => {
    const chats = new Chats();
    const agent = new SharedAgent();
    const one = chatOn(agent, chats);
    const two = chatOn(agent, chats);
    await one.c.newSession();
    await two.c.newSession();
    await chats.sessionUpdate({ sessionId: "s1", update: { sessionUpdate: "usage_update", used: 10, size: 100, cost: { amount: 0.25, currency: "USD" } } });
    await chats.sessionUpdate({ sessionId: "s2", update: { sessionUpdate: "usage_update", used: 20, size: 100, cost: { amount: 0.5, currency: "USD" } } });
    const visible = () => stub.statusItems.filter((i) => i.visible).map((i) => i.text);
    assert.equal(chats.active, two.c, "the chat opened last is in front");
    assert.deepEqual(visible(), ["dsh 20/100 · $0.5000"]);
    chats.activate(one.c);
    assert.deepEqual(visible(), ["dsh 10/100 · $0.2500"]);
    chats.remove(one.c);
    assert.equal(chats.active, two.c);
    assert.deepEqual(visible(), ["dsh 20/100 · $0.5000"]);
  });

  it("asks an elicitation form in the chat showing its session, and declines one when no chat is open", async () => {
    const chats = new Chats();
    const agent = new SharedAgent();
    agent.chats = chats;
    const one = chatOn(agent, chats);
    const two = chatOn(agent, chats);
    await one.c.newSession();
    await two.c.newSession();
    chats.activate(one.c);
    stub.onQuickInput = (input) => input.hide();
    const form = {
      mode: "form" as const,
      sessionId: "s2",
      message: "Which database?",
      requestedSchema: { type: "object" as const, properties: { q1: { type: "string" as const, title: "Which database?" } } },
    };
    const answer = await chats.createElicitation(form, new AbortController().signal);
    assert.equal(answer.action, "cancel");
    const asked = (p: ToWebview[]) => p.some((m) => m.type === "notice" && m.text.includes("Which database?"));
    assert.equal(asked(one.posted), false, "the active chat, which does not show s2, was asked");
    assert.equal(asked(two.posted), true, "the chat showing s2 was not asked");
    assert.deepEqual(await new Chats().createElicitation(form, new AbortController().signal), { action: "decline" });
  });
});

/** An agent that stores sessions "s1" and "s2" and records which it loads. */
class StoringAgent extends FakeAgent {
  readonly loaded: string[] = [];
  override async listSessions(): Promise<{ sessions: SessionInfo[] }> {
    return { sessions: [{ sessionId: "s1", cwd: dir }, { sessionId: "s2", cwd: dir }] };
  }
  override async loadSession(sessionId: string): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    this.loaded.push(sessionId);
    return {};
  }
}

/** A chat of chats placed as a view of its own (revealing it counts in revealed), one view per session as the extension wires it. */
function placedChat(agent: FakeAgent, chats: Chats, name: string, revealed: string[], opts: { restoring?: string; memory?: SessionMemory } = {}): ChatController {
  const place: ChatPlace = { reveal: () => revealed.push(name), restoring: opts.restoring };
  const c: ChatController = chatController(agent, [], dir, { elsewhere: (id) => chats.elsewhere(c, id), ...(opts.memory ? { memory: opts.memory } : {}) });
  chats.add(c, new UsageStatus(), place);
  return c;
}

describe("one view per conversation", () => {
  it("brings the view showing a session to the front when another view opens it (History, the view's list)", async () => {
    const chats = new Chats();
    const agent = new StoringAgent();
    const revealed: string[] = [];
    const sidebar = placedChat(agent, chats, "sidebar", revealed);
    const tab = placedChat(agent, chats, "tab", revealed);
    await tab.openSession("s1");
    assert.deepEqual([agent.loaded, revealed], [["s1"], []]);
    await sidebar.handle({ type: "loadSession", sessionId: "s1" });
    await sidebar.openSession("s1");
    assert.deepEqual([agent.loaded, revealed], [["s1"], ["tab", "tab"]], "the tab's session is not loaded a second time");
    assert.equal(sidebar.currentSession, undefined);
    assert.equal(chats.active, tab, "the revealed view is the active chat");
    await tab.openSession("s2");
    await sidebar.openSession("s1");
    assert.deepEqual(agent.loaded, ["s1", "s2", "s1"], "a session no other view shows opens here");
    await tab.openSession("s1");
    assert.deepEqual(revealed, ["tab", "tab", "sidebar"], "and the other way round");
    await sidebar.openSession("s1");
    assert.deepEqual([agent.loaded.length, revealed.length], [4, 3], "the view's own session opens in it again");
  });

  it("after a reload, leaves a restored tab's session to the tab: the sidebar does not reopen it, or gives it up if it did first", async () => {
    const agent = new StoringAgent();
    const memory: SessionMemory = { last: () => "s1", remember: () => undefined };
    const revealed: string[] = [];

    const chats = new Chats();
    const sidebar = placedChat(agent, chats, "sidebar", revealed, { memory });
    const tab = placedChat(agent, chats, "tab", revealed, { restoring: "s1", memory });
    await sidebar.handle({ type: "ready" });
    assert.equal(sidebar.currentSession, undefined, "the tab being restored keeps s1");
    await tab.handle({ type: "ready" });
    assert.deepEqual([agent.loaded, tab.currentSession], [["s1"], "s1"]);
    assert.deepEqual(revealed, [], "a quiet reopen reveals nothing");

    const later = new Chats();
    const first = placedChat(agent, later, "sidebar", revealed, { memory });
    await first.handle({ type: "ready" });
    assert.equal(first.currentSession, "s1", "the sidebar reopened it before the tab came back");
    const restored = placedChat(agent, later, "tab", revealed, { restoring: "s1", memory });
    later.restored(restored, "s1");
    assert.equal(first.currentSession, undefined, "the sidebar gives it up: its next prompt starts a new one");
    await restored.handle({ type: "ready" });
    assert.equal(restored.currentSession, "s1");
  });
});

describe("the session's cost in the status bar", () => {
  it("keeps the session's total when a later update has no cost, and counts the requests in the tooltip", async () => {
    const usage = new UsageStatus();
    usage.update({ used: 100, size: 1000, cost: { amount: 0.01, currency: "USD" } });
    usage.noteRequest({ amount: 0.01, currency: "USD" });
    usage.update({ used: 300, size: 1000, cost: null });
    assert.equal(usage.text, "dsh 300/1.0k · $0.0100");
    assert.equal(usage.tooltipText, "Context: 300 of 1,000 tokens\nThis session: $0.0100\nLast request: $0.0100 (1 request seen here)");
    usage.reset();
    assert.equal(stub.statusItems.at(-1)?.visible, false);
  });
});
