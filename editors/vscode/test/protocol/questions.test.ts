// The chat (ChatController on AgentClient) against the real dsh-acp with a
// scripted model: ask_user through the form (accept, decline, cancel), a
// plan review in plan mode (implement: the next write runs), and the todo
// list as plan operations (plan_update of items, plan_removed).
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { beforeEach, describe, it } from "node:test";
import * as vscode from "vscode";
import type { ToWebview } from "../../src/chat/messages";
import type { FieldPrompter, StepResult } from "../../src/elicitation/walk";
import type { ChatController } from "../../src/session/controller";
import { AnsweringPrompter } from "../fakes/chat";
import { dshAcpRuns } from "../fakes/dshAcp";
import { stub } from "../stubs/control";


const QUESTION = "Which database should the service use?";
const ASK = { tool_calls: [{ id: "a1", name: "ask_user", arguments: { questions: [{ question: QUESTION, options: ["Postgres", "SQLite"] }] } }] };
const PLAN = "# Plan\n\n1. Write plan.txt\n";

/** A prompter answering each field by its title (cancel for one it does not name). */
const byTitle = (answers: Readonly<Record<string, StepResult>>) => new AnsweringPrompter((f) => answers[f.title]);

describe("protocol: questions and plans against dsh-acp", () => {
  const runs = dshAcpRuns("questions");
  let posted: ToWebview[];
  beforeEach(() => {
    posted = [];
  });

  /** A chat on dsh-acp whose model answers with script, one line per model request. */
  const chat = (script: readonly unknown[], prompter?: FieldPrompter): ChatController => runs.chat(script, { post: (m) => posted.push(m), prompter });

  /** The text of the ask_user call's card: the tool's result, as the model reads it. */
  const askResult = (): string =>
    posted
      .flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "tool_call_update" && m.update.toolCallId === "a1" ? (m.update.content ?? []) : []))
      .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
      .join("");

  it("asks ask_user's question as a choice and a field for the user's own words, and the model gets the choice", async () => {
    const prompter = byTitle({ [QUESTION]: { kind: "answer", value: "SQLite" }, "Or in your own words": { kind: "answer", value: undefined } });
    assert.equal(await chat([ASK, { text: "Using SQLite." }], prompter).prompt("which database?"), "end_turn");
    assert.deepEqual(prompter.asked, [QUESTION, "Or in your own words"]);
    assert.match(askResult(), /SQLite/);
    assert.ok(!posted.some((m) => m.type === "notice" && m.text.startsWith("dsh asks")), "the question is on ask_user's card, not noted again");
  });

  it("tells the model the user declined, and ends the turn cancelled when they escape", async () => {
    assert.equal(await chat([ASK, { text: "I will assume Postgres." }], byTitle({ [QUESTION]: { kind: "decline" } })).prompt("which database?"), "end_turn");
    assert.match(askResult(), /declin/i);
    await runs.stopFirst();
    posted = [];
    assert.equal(await chat([ASK, { text: "unused" }], byTitle({})).prompt("which database?"), "cancelled");
  });

  it("shows the todo list as a plan_update of items by its id, and its clearing as plan_removed", async () => {
    const todos = (items: readonly [string, string][]) => ({ tool_calls: [{ id: `t${items.length}`, name: "todo_write", arguments: { todos: items.map(([content, status]) => ({ content, status })) } }] });
    const c = chat([todos([["Read", "in_progress"], ["Write", "pending"]]), todos([]), { text: "Done." }]);
    assert.equal(await c.prompt("plan it"), "end_turn");
    const plans = posted.flatMap((m) => (m.type === "update" && (m.update.sessionUpdate === "plan_update" || m.update.sessionUpdate === "plan_removed" || m.update.sessionUpdate === "plan") ? [m.update] : []));
    assert.deepEqual(plans, [
      { sessionUpdate: "plan_update", plan: { type: "items", planId: "todos", entries: [{ content: "Read", status: "in_progress", priority: "medium" }, { content: "Write", status: "pending", priority: "medium" }] } },
      { sessionUpdate: "plan_removed", planId: "todos" },
    ]);
  });

  it("in plan mode, opens exit_plan_mode's plan and on Implement runs the next write under the preset before", async () => {
    stub.warningAnswer = (message) => (message.startsWith("dsh has a plan") ? "Implement the plan" : undefined);
    const c = chat([
      { tool_calls: [{ id: "p1", name: "exit_plan_mode", arguments: { plan: PLAN } }] },
      { tool_calls: [{ id: "w1", name: "write", arguments: { file_path: "plan.txt", content: "done\n" } }] },
      { text: "Implemented." },
    ]);
    await c.newSession();
    await c.handle({ type: "setConfig", configId: "mode", value: "plan" });
    assert.equal(await c.prompt("plan, then do it"), "end_turn");
    const preview = stub.executed.find((e) => e.command === "markdown.showPreview");
    assert.ok(preview, "the plan opened in the preview");
    assert.match((await vscode.workspace.openTextDocument(preview.args[0] as vscode.Uri)).getText(), /Write plan\.txt/);
    assert.equal(readFileSync(path.join(runs.ws(), "plan.txt"), "utf8"), "done\n", "the write after Implement ran");
    const shown = posted.flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "plan_update" ? [m.update.plan] : []));
    assert.deepEqual(shown, [{ type: "markdown", planId: "plan", content: PLAN.trimEnd() }], "the chat was shown the plan as a plan_update of Markdown (plan advertised)");
    const modes = posted.flatMap((m) => (m.type === "config" ? m.options.filter((o) => o.id === "mode").map((o) => o.currentValue) : []));
    assert.equal(modes.at(-1), "workspace-write", "back to the preset before plan mode");
    const outcome = posted.flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "tool_call_update" && m.update.toolCallId === "p1" && m.update.status === "completed" ? [m.update] : []));
    assert.deepEqual(outcome.map((u) => u.content), [[{ type: "content", content: { type: "text", text: "Plan approved — implementing" } }]], "the card says the outcome as dsh-acp tells the user");
    assert.match(String(outcome[0]?.rawOutput), /The user approved the plan/, "the model's instructions are the raw output");
  });
});
