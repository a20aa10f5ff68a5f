import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import * as vscode from "vscode";
import type { AgentCapabilities, ContentBlock, SessionConfigOption, SessionInfo, SessionUpdate } from "@agentclientprotocol/sdk";
import { REOPENS_WITH_KEY, type SignInResult, type SignInWay } from "../../src/auth/signIn";
import type { FromWebview, ToWebview } from "../../src/chat/messages";
import { DiffContentProvider } from "../../src/diff/provider";
import { Follower } from "../../src/follow";
import { ReviewList } from "../../src/review/reviewList";
import type { AgentPort } from "../../src/session/agentPort";
import { ChatController } from "../../src/session/controller";
import type { SessionMemory } from "../../src/session/sessions";
import { restoreFile } from "../../src/session/files";
import { ResultsLog } from "../../src/session/resultsLog";
import { UsageStatus } from "../../src/status/usage";
import { CommandTerminals } from "../../src/terminal/terminals";
import { stub } from "../stubs/control";
import { Position, Range, StubTextEditor } from "../stubs/vscode";
import { NO_EDITOR, NOT_INSERTED } from "../../src/session/insertCode";

class Agent implements AgentPort {
  readonly cancelled: string[] = [];
  readonly configSet: [string, string][] = [];
  readonly prompts: { sessionId: string; text: string }[] = [];
  readonly resumed: string[] = [];
  resumeFails = false;
  /** When set, session/new answers ACP's auth-required error (no API key). */
  needsKey = false;
  sessions = 0;
  async newSession(): Promise<{ sessionId: string; configOptions?: SessionConfigOption[] | null }> {
    if (this.needsKey) throw Object.assign(new Error("Authentication required: no API key for the model"), { code: -32000 });
    this.sessions++;
    return { sessionId: `s${this.sessions}`, configOptions: [] };
  }
  readonly loaded: string[] = [];
  async loadSession(sessionId: string): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    this.loaded.push(sessionId);
    return {};
  }
  async resumeSession(sessionId: string): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    if (this.resumeFails) throw new Error("session not found");
    this.resumed.push(sessionId);
    return {};
  }
  async listSessions(): Promise<{ sessions: SessionInfo[] }> {
    return { sessions: [{ sessionId: "s0", cwd: "/w", title: "older" }] };
  }
  readonly blocks: ContentBlock[][] = [];
  async prompt(sessionId: string, p: ContentBlock[]): Promise<{ stopReason: string }> {
    this.blocks.push(p);
    this.prompts.push({ sessionId, text: p.map((b) => (b.type === "text" ? b.text : "")).join("") });
    return { stopReason: "end_turn" };
  }
  async cancel(sessionId: string): Promise<void> {
    this.cancelled.push(sessionId);
  }
  async setConfigOption(_s: string, configId: string, value: string): Promise<SessionConfigOption[]> {
    this.configSet.push([configId, value]);
    return [];
  }
  caps: AgentCapabilities = { promptCapabilities: { image: true }, sessionCapabilities: { list: {}, delete: {} } };
  async capabilities(): Promise<AgentCapabilities> {
    return this.caps;
  }
  readonly deleted: string[] = [];
  async deleteSession(sessionId: string): Promise<void> {
    this.deleted.push(sessionId);
  }
}

let dir: string;
let posted: ToWebview[];
let agent: Agent;
let usage: UsageStatus;
let terminals: CommandTerminals;
let controller: ChatController;
let resultsFile: string;

beforeEach(async () => {
  stub.reset();
  dir = mkdtempSync(path.join(tmpdir(), "dsh-vscode-ctl-"));
  resultsFile = path.join(dir, "results.jsonl");
  posted = [];
  agent = new Agent();
  usage = new UsageStatus();
  terminals = new CommandTerminals();
  controller = controllerFor(agent, posted, { follow: true, results: resultsFile });
  await controller.newSession();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A controller on a, posting to seen; it follows and records results only when told. */
function controllerFor(a: Agent, seen: ToWebview[], opts: { follow?: boolean; results?: string; authRequired?: (way: SignInWay) => Promise<SignInResult>; memory?: SessionMemory; visible?: boolean } = {}): ChatController {
  return new ChatController({
    agent: async () => a,
    post: (m) => seen.push(m),
    diffs: new DiffContentProvider(),
    review: new ReviewList(restoreFile),
    terminals,
    follower: new Follower(() => opts.follow ?? false),
    usage,
    results: new ResultsLog(opts.results),
    cwd: () => dir,
    authRequired: opts.authRequired,
    memory: opts.memory,
    visible: () => opts.visible ?? false,
  });
}

/** A controller on a that records each sign-in offered in signIns ("offered", or the way when not "notify") and answers with result. */
function keyless(a: Agent, seen: ToWebview[], signIns: string[], result: SignInResult, visible = false): ChatController {
  return controllerFor(a, seen, {
    visible,
    authRequired: async (way) => {
      signIns.push(way === "notify" ? "offered" : way);
      return result;
    },
  });
}

const update = (u: SessionUpdate, sessionId = "s1") => controller.sessionUpdate({ sessionId, update: u });

describe("chat controller", () => {
  it("keeps the new session's updates that arrive before session/new answers", async () => {
    const early = new Agent();
    const seen: ToWebview[] = [];
    early.newSession = async () => {
      await c.sessionUpdate({ sessionId: "s2", update: { sessionUpdate: "available_commands_update", availableCommands: [{ name: "help", description: "Help" }] } });
      return { sessionId: "s2" };
    };
    const c = controllerFor(early, seen);
    await c.newSession();
    assert.ok(seen.some((m) => m.type === "commands" && m.commands[0]?.name === "help"));
  });

  it("forwards every update of the current session to the view, and none of another", async () => {
    await update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } });
    await update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "other" } }, "s9");
    const updates = posted.filter((m) => m.type === "update");
    assert.equal(updates.length, 1);
  });

  it("routes commands, config options and usage", async () => {
    await update({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "undo", description: "Undo the last turn" }] });
    await update({ sessionUpdate: "config_option_update", configOptions: [] });
    await update({ sessionUpdate: "usage_update", used: 2000, size: 100000, cost: { amount: 0.5, currency: "USD" } });
    assert.ok(posted.some((m) => m.type === "commands" && m.commands[0]?.name === "undo"));
    assert.ok(posted.some((m) => m.type === "config"));
    assert.equal(usage.text, "dsh 2.0k/100.0k · $0.5000");
  });

  it("opens a terminal for a command, follows locations, and opens a card's diff", async () => {
    const file = path.join(dir, "a.go");
    writeFileSync(file, "package a\n");
    await update({ sessionUpdate: "tool_call", toolCallId: "b1", title: "Run", kind: "execute", rawInput: { command: "go test ./..." }, _meta: { terminal_info: { terminal_id: "t1" } } });
    assert.equal(stub.terminals[0]?.name, "dsh: go test ./...");
    await update({ sessionUpdate: "tool_call", toolCallId: "r1", title: "Read a.go", kind: "read", locations: [{ path: file, line: 0 }] });
    assert.equal(stub.shownDocuments[0]?.path, file);
    await update({ sessionUpdate: "tool_call_update", toolCallId: "e1", title: "Edit a.go", content: [{ type: "diff", path: file, oldText: "old\n", newText: "package a\n" }] });
    await controller.handle({ type: "openDiff", toolCallId: "e1", path: file });
    assert.equal(stub.executed.at(-1)?.command, "vscode.diff");
  });

  it("answers an approval from the card and clears it", async () => {
    stub.warningAnswer = () => new Promise(() => undefined);
    const asked = controller.requestPermission(
      { sessionId: "s1", toolCall: { toolCallId: "b1", title: "Run" }, options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }] },
      new AbortController().signal,
    );
    const shown = posted.find((m) => m.type === "permission");
    assert.ok(shown?.type === "permission");
    await controller.handle({ type: "permission", requestId: shown.requestId, optionId: "allow" });
    assert.deepEqual(await asked, { outcome: { outcome: "selected", optionId: "allow" } });
    assert.ok(posted.some((m) => m.type === "permissionResolved" && m.requestId === shown.requestId));
  });

  it("sets config options, stops nothing when idle, and lists sessions", async () => {
    await controller.handle({ type: "setConfig", configId: "model", value: "deepseek-v4-pro" });
    assert.deepEqual(agent.configSet, [["model", "deepseek-v4-pro"]]);
    await controller.handle({ type: "stop" });
    assert.deepEqual(agent.cancelled, []);
    await controller.handle({ type: "ready" });
    assert.ok(posted.some((m) => m.type === "sessions" && m.sessions[0]?.sessionId === "s0"));
  });

  it("tells the view whether the API key is stored, when it is ready and after a sign-in", async () => {
    let stored = false;
    const seen: ToWebview[] = [];
    const c = new ChatController({
      agent: async () => agent,
      post: (m) => seen.push(m),
      diffs: new DiffContentProvider(),
      review: new ReviewList(restoreFile),
      terminals,
      follower: new Follower(() => false),
      usage,
      results: new ResultsLog(undefined),
      cwd: () => dir,
      keyStored: async () => stored,
      authRequired: async () => {
        stored = true;
        return "key";
      },
    });
    await c.handle({ type: "ready" });
    await c.signIn();
    const told = seen.flatMap((m) => (m.type === "apiKey" ? [m.stored] : []));
    assert.deepEqual(told, [false, true]);
  });

  it("offers the active editor's context and sends it only when the view kept it", async () => {
    const file = path.join(dir, "a.go");
    controller.offerContext({ path: file, selection: { startLine: 2, endLine: 3, text: "x := 1\ny := 2" } });
    assert.ok(posted.some((m) => m.type === "editorContext" && m.label === "a.go:3-4"));
    await controller.handle({ type: "prompt", text: "explain", withContext: true });
    assert.deepEqual(agent.blocks.at(-1)?.slice(1), [{ type: "resource", resource: { uri: `file://${file}#L3-L4`, mimeType: "text/plain", text: "x := 1\ny := 2" } }]);
    assert.ok(posted.some((m) => m.type === "userPrompt" && m.context === "a.go:3-4"));
    await controller.handle({ type: "prompt", text: "without", withContext: false });
    assert.equal(agent.blocks.at(-1)?.length, 1);
    controller.offerContext(undefined);
    await controller.handle({ type: "prompt", text: "nothing offered", withContext: true });
    assert.equal(agent.blocks.at(-1)?.length, 1);
  });

  it("lists workspace files for an @ mention and sends the files a prompt mentions as resource links", async () => {
    const file = path.join(dir, "src", "a.go");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "package a\n");
    stub.workspaceFiles = [file, path.join(dir, "b.go")];
    await controller.handle({ type: "mention", query: "a." });
    assert.equal(stub.findFilesCalls[0], "**/*a.*");
    assert.ok(posted.some((m) => m.type === "mentions" && m.query === "a." && m.items.map((i) => i.insert).join() === "b.go,src/a.go"));
    await controller.handle({ type: "prompt", text: "explain @src/a.go and @missing.go and @../outside.go" });
    assert.deepEqual(agent.blocks.at(-1)?.slice(1), [{ type: "resource_link", uri: `file://${file}`, name: "a.go" }]);
    assert.ok(posted.some((m) => m.type === "userPrompt" && m.context === "src/a.go"));
  });

  it("lists the active selection and workspace symbols with their lines for an @ mention, and sends mentioned lines as embedded resources", async () => {
    const file = path.join(dir, "src", "a.ts");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, "l1\nl2\nclass Greeter {\n  hi() {}\n}\nl6\n");
    stub.workspaceFiles = [file];
    const symbolQueries: unknown[] = [];
    stub.commands.set("vscode.executeWorkspaceSymbolProvider", (q: unknown) => {
      symbolQueries.push(q);
      const at = (uri: vscode.Uri, start: number, end: number) => ({ uri, range: new vscode.Range(new vscode.Position(start, 0), new vscode.Position(end, 1)) });
      return [
        { name: "Greeter", kind: vscode.SymbolKind.Class, containerName: "", location: at(vscode.Uri.file(file), 2, 4) },
        { name: "Elsewhere", kind: vscode.SymbolKind.Function, containerName: "", location: at(vscode.Uri.file("/outside/b.ts"), 0, 1) },
      ];
    });
    controller.offerContext({ path: file, selection: { startLine: 0, endLine: 1, text: "l1\nl2" } });
    await controller.handle({ type: "mention", query: "" });
    const first = posted.filter((m) => m.type === "mentions").at(-1);
    assert.ok(first?.type === "mentions");
    assert.deepEqual(first.items[0], { kind: "selection", insert: "src/a.ts#L1-2", label: "Selection", detail: "src/a.ts:1-2" });
    assert.deepEqual(symbolQueries, [], "no symbol query for a bare @");
    await controller.handle({ type: "mention", query: "Greet" });
    const second = posted.filter((m) => m.type === "mentions").at(-1);
    assert.ok(second?.type === "mentions");
    assert.deepEqual(second.items.filter((i) => i.kind === "symbol"), [{ kind: "symbol", insert: "src/a.ts#L3-5", label: "Greeter", detail: "class · src/a.ts:3-5" }], "a symbol outside the workspace is left out");
    assert.ok(!second.items.some((i) => i.kind === "selection"), "the selection is offered for a query naming its file only");

    await controller.handle({ type: "prompt", text: "explain @src/a.ts#L3-5 and @src/a.ts#L40" });
    assert.deepEqual(agent.blocks.at(-1)?.slice(1), [
      { type: "resource", resource: { uri: `file://${file}#L3-L5`, mimeType: "text/plain", text: "class Greeter {\n  hi() {}\n}" } },
      { type: "resource_link", uri: `file://${file}`, name: "a.ts" },
    ]);
    assert.ok(posted.some((m) => m.type === "userPrompt" && m.context === "src/a.ts:3-5, src/a.ts"));
  });

  it("sends pasted images as image blocks when the agent takes images, and says so when it does not", async () => {
    const png = { mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" };
    await controller.handle({ type: "prompt", text: "what is this?", images: [png, { mimeType: "text/html", data: "PGI+", name: "x" }, { mimeType: "image/png", data: "not base64!", name: "y" }] });
    assert.deepEqual(agent.blocks.at(-1)?.slice(1), [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }], "only well-formed images go");
    assert.ok(posted.some((m) => m.type === "userPrompt" && m.context === "1 image"));
    agent.caps = { promptCapabilities: { image: false } };
    posted.length = 0;
    await controller.handle({ type: "prompt", text: "and this?", images: [png] });
    assert.deepEqual(agent.blocks.at(-1), [{ type: "text", text: "and this?" }]);
    assert.ok(posted.some((m) => m.type === "notice" && m.level === "info" && m.text.includes("does not take images")));
  });

  it("keeps a prompt's images back, and says why, when the agent says the session's model takes none", async () => {
    const png = { mimeType: "image/png", data: "iVBORw0KGgo=", name: "shot.png" };
    const models = (current: string) =>
      update({
        sessionUpdate: "config_option_update",
        configOptions: [
          {
            id: "model",
            name: "Model",
            category: "model",
            type: "select",
            currentValue: current,
            options: [
              { value: "eyes", name: "Eyes", _meta: { "dsh-acp": { images: true } } },
              { value: "text", name: "Text Only", _meta: { "dsh-acp": { images: false } } },
              { value: "listed", name: "Listed" },
            ],
          },
        ],
      });
    await controller.prompt("first");
    await models("text");
    posted.length = 0;
    await controller.handle({ type: "prompt", text: "what is this?", images: [png] });
    assert.deepEqual(agent.blocks.at(-1), [{ type: "text", text: "what is this?" }], "the image stays behind");
    assert.ok(posted.some((m) => m.type === "notice" && m.text.startsWith("Text Only does not take images")));
    for (const model of ["eyes", "listed"]) {
      await models(model);
      await controller.handle({ type: "prompt", text: "and now?", images: [png] });
      assert.deepEqual(agent.blocks.at(-1)?.slice(1), [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }], `${model}: sent (it takes images, or nobody says it does not)`);
    }
  });

  it("shows what each request cost on its turn", async () => {
    await update({ sessionUpdate: "usage_update", used: 100, size: 1000, cost: { amount: 0.5, currency: "USD" } });
    agent.prompt = async () => {
      await update({ sessionUpdate: "usage_update", used: 200, size: 1000, cost: { amount: 0.5123, currency: "USD" } });
      return { stopReason: "end_turn" };
    };
    await controller.prompt("hello");
    const cost = posted.find((m) => m.type === "turnCost");
    assert.deepEqual(cost, { type: "turnCost", text: "$0.0123" });
  });

  it("shows no cost on a turn that made no priced request (a slash command), as a replay does not", async () => {
    await update({ sessionUpdate: "usage_update", used: 100, size: 1000, cost: { amount: 0.5, currency: "USD" } });
    await controller.prompt("/undo");
    assert.deepEqual(posted.filter((m) => m.type === "turnCost"), []);
    agent.prompt = async () => {
      await update({ sessionUpdate: "usage_update", used: 200, size: 1000, cost: { amount: 0.5, currency: "USD" } });
      return { stopReason: "end_turn" };
    };
    await controller.prompt("a free model's answer");
    assert.deepEqual(posted.filter((m) => m.type === "turnCost"), [{ type: "turnCost", text: "$0.0000" }], "a priced request that cost nothing says so");
  });

  it("records turns for the e2e results hook", async () => {
    await controller.prompt("hello");
    const { readFileSync } = await import("node:fs");
    const lines = readFileSync(resultsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { event: string; stopReason?: string });
    assert.deepEqual(lines.map((l) => [l.event, l.stopReason]), [["turn", "end_turn"]]);
  });

  it("resumes the session after a restart, or drops it when that fails", async () => {
    await controller.prompt("hello");
    await controller.reattach();
    assert.equal(controller.currentSession, "s1");
    assert.deepEqual(agent.resumed, ["s1"]);
    assert.equal(await controller.prompt("after the restart"), "end_turn");
    assert.deepEqual(agent.prompts.map((p) => p.sessionId), ["s1", "s1"]);
    agent.resumeFails = true;
    await controller.reattach();
    assert.equal(controller.currentSession, undefined);
    assert.ok(posted.some((m) => m.type === "notice" && m.level === "error"));
  });

  it("replaces a session never prompted (the agent has not stored it) after a restart, quietly", async () => {
    await controller.reattach();
    assert.deepEqual(agent.resumed, []);
    assert.equal(controller.currentSession, "s2");
    assert.ok(!posted.some((m) => m.type === "notice" && m.level === "error"));
  });

  it("keeps a prompt sent without an API key, offers the sign-in, and sends it once the key is set", async () => {
    const signIns: string[] = [];
    const fresh = new Agent();
    fresh.needsKey = true;
    const seen: ToWebview[] = [];
    const c = keyless(fresh, seen, signIns, "key");
    assert.equal(await c.prompt("first words"), undefined);
    assert.deepEqual(signIns, ["offered"]);
    assert.ok(seen.some((m) => m.type === "userPrompt" && m.text === "first words"), "the prompt stays in view");
    const notice = seen.find((m) => m.type === "notice");
    assert.ok(notice?.type === "notice" && notice.action === "signIn" && notice.text.includes("kept"));
    assert.doesNotMatch(notice.text, /DSH_|dsh-acp|environment/);
    assert.deepEqual(fresh.prompts, []);
    fresh.needsKey = false; // the key was set; the agent restarted
    await c.reattach();
    assert.deepEqual(fresh.prompts, [{ sessionId: "s1", text: "first words" }]);
    await c.reattach();
    assert.equal(fresh.prompts.length, 1, "sent once");
  });

  it("reopens the conversation last shown when the window is reloaded, and remembers the one shown", async () => {
    let last: string | undefined = "s0";
    const a = new Agent();
    const c = controllerFor(a, [], { memory: { last: () => last, remember: (id) => (last = id) } });
    await c.handle({ type: "ready" });
    assert.deepEqual(a.loaded, ["s0"]);
    assert.equal(c.currentSession, "s0");
    await c.handle({ type: "ready" });
    assert.deepEqual(a.loaded, ["s0"], "a session shown is not loaded again");
    await c.newSession();
    assert.equal(last, "s1");
  });

  it("says the last conversation reopens once the key is set when it needs a key to reopen, and reopens it then", async () => {
    const a = new Agent();
    const load = a.loadSession.bind(a);
    a.loadSession = async () => {
      throw Object.assign(new Error("Authentication required: set DSH_API_KEY"), { code: -32000 });
    };
    const seen: ToWebview[] = [];
    const c = controllerFor(a, seen, { memory: { last: () => "s0", remember: () => undefined } });
    await c.handle({ type: "ready" });
    assert.equal(c.currentSession, undefined);
    const notices = seen.flatMap((m) => (m.type === "notice" ? [m] : []));
    assert.deepEqual(notices.map((m) => [m.text, m.action]), [[REOPENS_WITH_KEY, "signIn"]], "not the first run's words, nor an error in the agent's terms");
    assert.doesNotMatch(REOPENS_WITH_KEY, /to start a conversation/);
    a.loadSession = load;
    c.restarting();
    await c.restarted(true); // the key was set: the agent restarted
    assert.deepEqual(a.loaded, ["s0"]);
    assert.equal(c.currentSession, "s0");
    await c.restarted(true);
    assert.deepEqual(a.loaded, ["s0"], "reopened once");
  });

  it("does not reopen the conversation waiting for the key once the user started a new one", async () => {
    const a = new Agent();
    const load = a.loadSession.bind(a);
    a.loadSession = async () => {
      throw Object.assign(new Error("Authentication required: set DSH_API_KEY"), { code: -32000 });
    };
    const c = controllerFor(a, [], { memory: { last: () => "s0", remember: () => undefined } });
    await c.handle({ type: "ready" });
    a.loadSession = load;
    await c.newSession();
    await c.restarted(true);
    assert.deepEqual(a.loaded, []);
  });

  it("does not reopen a session the agent no longer has", async () => {
    const a = new Agent();
    const c = controllerFor(a, [], { memory: { last: () => "gone", remember: () => undefined } });
    await c.handle({ type: "ready" });
    assert.deepEqual(a.loaded, []);
  });

  it("leaves the sign-in to the view's notice when the view is in sight (no notification to go stale), and asks only which way from its button", async () => {
    const signIns: string[] = [];
    const fresh = new Agent();
    fresh.needsKey = true;
    const seen: ToWebview[] = [];
    const c = keyless(fresh, seen, signIns, "dismissed", true);
    assert.equal(await c.prompt("first words"), undefined);
    await c.handle({ type: "newSession" });
    assert.deepEqual(signIns, []);
    assert.equal(seen.filter((m) => m.type === "notice" && m.action === "signIn").length, 2);
    await c.handle({ type: "signIn" });
    assert.deepEqual(signIns, ["choose"]);
  });

  it("offers the sign-in when New needs an API key", async () => {
    const signIns: string[] = [];
    const fresh = new Agent();
    fresh.needsKey = true;
    const seen: ToWebview[] = [];
    const c = keyless(fresh, seen, signIns, "dismissed");
    await c.handle({ type: "newSession" });
    assert.deepEqual(signIns, ["offered"]);
    assert.ok(seen.some((m) => m.type === "notice" && m.action === "signIn"));
  });

  it("reviews through the QuickPick: reject one file", async () => {
    const file = path.join(dir, "b.txt");
    writeFileSync(file, "changed");
    await update({ sessionUpdate: "tool_call", toolCallId: "w1", title: "Write", status: "completed", content: [{ type: "diff", path: file, oldText: "orig", newText: "changed" }] });
    const answers: unknown[] = [];
    stub.quickPickAnswer = (items) => {
      answers.push(items);
      const list = items as { choice?: { path?: string }; action?: string }[];
      return answers.length === 1 ? list.find((i) => i.choice?.path === file) : list.find((i) => i.action === "reject");
    };
    await controller.reviewChanges();
    const { readFileSync } = await import("node:fs");
    assert.equal(readFileSync(file, "utf8"), "orig");
  });
});

describe("a code block's Insert", () => {
  /** An editor on a document of text with the selections [start, end] (offsets on line 0). */
  const editorOn = (text: string, selections: [number, number][]) => {
    const editor = new StubTextEditor(stub.openDocument(path.join(dir, "a.py"), text));
    editor.selections = selections.map(([a, b]) => new Range(new Position(0, a), new Position(0, b)));
    return editor;
  };
  const cases: { name: string; setup: () => StubTextEditor | undefined; text: unknown; want: string | undefined; info?: string }[] = [
    { name: "puts the code at the active editor's cursor", setup: () => (stub.activeEditor = editorOn("ab", [[1, 1]])), text: "X", want: "aXb" },
    { name: "replaces the selection", setup: () => (stub.activeEditor = editorOn("abcd", [[1, 3]])), text: "X", want: "aXd" },
    { name: "replaces every selection", setup: () => (stub.activeEditor = editorOn("abcd", [[0, 1], [2, 3]])), text: "X", want: "XbXd" },
    {
      name: "goes into the one visible editor when none is active (the chat is a tab)",
      setup: () => {
        const e = editorOn("ab", [[2, 2]]);
        stub.editors = [e];
        return e;
      },
      text: "X",
      want: "abX",
    },
    { name: "says so when no text editor is open", setup: () => undefined, text: "X", want: undefined, info: NO_EDITOR },
    {
      name: "says so when the editor refuses the edit",
      setup: () => {
        const e = (stub.activeEditor = editorOn("ab", [[0, 0]]));
        e.editable = false;
        return e;
      },
      text: "X",
      want: "ab",
      info: NOT_INSERTED,
    },
    { name: "ignores a message without text", setup: () => (stub.activeEditor = editorOn("ab", [[0, 0]])), text: 42, want: "ab" },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const editor = c.setup();
      await controller.handle({ type: "insert", text: c.text } as FromWebview);
      assert.equal(editor?.document.getText(), c.want);
      assert.deepEqual(stub.infos, c.info ? [c.info] : []);
    });
  }
});
