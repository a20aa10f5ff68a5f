// Subagents through the official SDK client against the binary, with a
// fake model server that answers each child by its prompt: three explore
// children of one step run in parallel (the model sees them in flight
// together), and a general child's edit lands in the workspace and is
// shown as a diff card.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { agentSuite, startAgent, ZED_INITIALIZE } from "./helpers.mjs";
import { startFakeModel, firstPrompt } from "./fakemodel.mjs";

const TIMEOUT = 120_000;

/** A model step calling the given tools. */
const calls = (...cs) => ({ tool_calls: cs.map(([id, name, args]) => ({ id, name, arguments: args })) });

/** The tools a request offered, by name. */
const offered = (req) => (req.tools ?? []).map((t) => t.function.name);

agentSuite("subagents", () => {
  test("three explore tasks of one step run in parallel and answer by their prompts", { timeout: TIMEOUT }, async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const questions = ["Where is the parser?", "Where are the tests?", "Which license?"];
    // Each child's first answer waits until all three children asked: a
    // serial run would never release it (and the test would time out).
    let release;
    const allInFlight = new Promise((resolve) => (release = resolve));
    const asked = new Set();
    model.onRequest((req) => {
      const p = firstPrompt(req);
      if (questions.includes(p)) asked.add(p);
      if (asked.size === questions.length) release();
    });
    model.answerFor(
      "Survey the repository.",
      calls(...questions.map((q, i) => [`t${i + 1}`, "task", { description: `question ${i + 1}`, prompt: q, subagent_type: "explore" }])),
    );
    model.answerFor("Survey the repository.", { text: "Here is the survey." });
    questions.forEach((q, i) => model.answerFor(q, { text: `Answer ${i + 1}.`, wait: allInFlight }));

    const a = await startAgent({ model: { baseURL: model.baseURL }, files: { "main.go": "package main\n" } });
    const s = await a.newSession();
    const res = await a.prompt(s, "Survey the repository.");
    assert.equal(res.stopReason, "end_turn");
    for (const [i, q] of questions.entries()) {
      const childReqs = model.requests.filter((r) => firstPrompt(r) === q);
      assert.equal(childReqs.length, 1, `child ${i + 1} asked once`);
      const tools = offered(childReqs[0]);
      for (const name of ["read", "grep", "glob", "bash"]) assert.ok(tools.includes(name), `explore offers ${name}: ${tools}`);
      for (const name of ["write", "edit", "task", "todo_write"]) assert.ok(!tools.includes(name), `explore offers no ${name}: ${tools}`);
      const task = a.updates(`t${i + 1}`);
      assert.equal(task[0].title, `explore: question ${i + 1}`);
      assert.equal(task.at(-1).status, "completed");
      assert.ok(JSON.stringify(task.at(-1).content).includes(`Answer ${i + 1}.`), "the task ends with its child's answer");
    }
    const parentLast = model.requests.filter((r) => firstPrompt(r) === "Survey the repository.").at(-1);
    const results = parentLast.messages.filter((m) => m.role === "tool").map((m) => m.content);
    assert.deepEqual(results, ["Answer 1.", "Answer 2.", "Answer 3."], "the parent reads each child's answer as the task's result");
  });

  test("a general task edits a file, shown as a diff card of the child's", { timeout: TIMEOUT }, async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const job = "Change hi to hello in greeting.txt.";
    model.answerFor("Fix the greeting.", calls(["t1", "task", { description: "fix the greeting", prompt: job }]));
    model.answerFor("Fix the greeting.", { text: "Fixed." });
    model.answerFor(job, calls(["c1", "edit", { file_path: "greeting.txt", old_string: "hi", new_string: "hello" }]));
    model.answerFor(job, { text: "greeting.txt:1 now says hello." });

    const a = await startAgent({ model: { baseURL: model.baseURL }, files: { "greeting.txt": "hi\n" } });
    const s = await a.newSession();
    assert.equal((await a.prompt(s, "Fix the greeting.")).stopReason, "end_turn");
    assert.equal(readFileSync(path.join(a.workspace, "greeting.txt"), "utf8"), "hello\n");
    const childTools = offered(model.requests.find((r) => firstPrompt(r) === job));
    assert.ok(childTools.includes("edit") && !childTools.includes("task"), `general offers edit, not task: ${childTools}`);
    const diff = a
      .updates()
      .find((u) => u.sessionUpdate === "tool_call" && u.toolCallId.endsWith("/c1") && u.kind === "edit");
    assert.ok(diff, "the child's edit has a card of its own");
    const done = a.updates(diff.toolCallId).at(-1);
    assert.equal(done.status, "completed");
    assert.equal(done.content[0].type, "diff");
    assert.equal(done.content[0].newText, "hello\n");
    const task = a.updates("t1").at(-1);
    assert.equal(task.status, "completed");
    assert.match(JSON.stringify(task.content), /- Edit greeting\.txt.*greeting\.txt:1 now says hello\./);
  });

  test("a client advertising subagents (the SDK's unstable client) gets the child as a session of its own", { timeout: TIMEOUT }, async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const question = "Where is main?";
    model.answerFor("Find main.", calls(["t1", "task", { description: "find main", prompt: question, subagent_type: "explore" }]));
    model.answerFor("Find main.", { text: "In main.go." });
    model.answerFor(question, calls(["g1", "grep", { pattern: "func main" }]));
    model.answerFor(question, { text: "main.go:3" });

    const initialize = { ...ZED_INITIALIZE, clientCapabilities: { ...ZED_INITIALIZE.clientCapabilities, subagents: {} } };
    const a = await startAgent({ model: { baseURL: model.baseURL }, initialize, unstable: true, files: { "main.go": "package main\n\nfunc main() {}\n" } });
    const s = await a.newSession();
    assert.equal((await a.prompt(s, "Find main.")).stopReason, "end_turn");
    const announce = a.notifications.findIndex((n) => n.sessionId === s && n.update.sessionUpdate === "subagent_update");
    assert.ok(announce >= 0, "the parent announces the child");
    const child = a.notifications[announce].update.sessionId;
    assert.equal(a.notifications[announce].update.title, "find main");
    const childUpdates = a.notifications.filter((n) => n.sessionId === child);
    assert.ok(childUpdates.length > 0, "the child's updates go under its session id");
    assert.ok(
      a.notifications.findIndex((n) => n.sessionId === child) > announce,
      "no child update precedes its announcement",
    );
    assert.ok(childUpdates.some((n) => n.update.sessionUpdate === "tool_call" && n.update.toolCallId === "g1"), "the child's grep is its own call");
    const sessions = await a.agent.request("session/list", {});
    assert.deepEqual(
      sessions.sessions.map((x) => x.sessionId),
      [s],
      "session/list lists only the parent",
    );
  });

  test("a project's own subagent type is offered and keeps its deny list", { timeout: TIMEOUT }, async (t) => {
    const model = await startFakeModel();
    t.after(() => model.close());
    const job = "Review main.go.";
    model.answerFor("Review it.", calls(["t1", "task", { description: "review", prompt: job, subagent_type: "reviewer" }]));
    model.answerFor("Review it.", { text: "Reviewed." });
    model.answerFor(job, { text: "main.go looks fine." });
    const a = await startAgent({
      model: { baseURL: model.baseURL },
      files: {
        "main.go": "package main\n",
        ".dsh/agents/reviewer.md": "---\ndescription: Reviews a change without running anything.\ndeny: bash, write\n---\nYou review code. Report problems with path:line.\n",
      },
    });
    const s = await a.newSession();
    assert.equal((await a.prompt(s, "Review it.")).stopReason, "end_turn");
    const parentFirst = model.requests.find((r) => firstPrompt(r) === "Review it.");
    const task = parentFirst.tools.find((x) => x.function.name === "task");
    assert.match(task.function.description, /- reviewer: Reviews a change without running anything\./);
    const child = model.requests.find((r) => firstPrompt(r) === job);
    const tools = offered(child);
    assert.ok(tools.includes("read") && tools.includes("edit"), `the deny list keeps the rest: ${tools}`);
    assert.ok(!tools.includes("bash") && !tools.includes("write") && !tools.includes("task"), `denied: ${tools}`);
    assert.match(child.messages[0].content, /You review code\./, "the type's body is the child's instructions");
    assert.ok(JSON.stringify(a.updates("t1").at(-1).content).includes("main.go looks fine."));
  });
});
