// The chat (ChatController on AgentClient, advertising subagents) against
// the real dsh-acp with a scripted model that answers the parent's and the
// child's requests in the order they come: an explore task whose child
// reads a file shows as the child's block (live, and again on load), and a
// child stopped with its own Stop ends cancelled while its parent's turn
// goes on.
import { strict as assert } from "node:assert";
import { existsSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import type { ToWebview } from "../../src/chat/messages";
import type { AgentUpdate } from "../../src/client/unstable";
import { childCallId } from "../../src/session/childCalls";
import type { ChatController } from "../../src/session/controller";
import { dshAcpRuns } from "../fakes/dshAcp";
import { stub } from "../stubs/control";

const task = (id: string, args: { description: string; prompt: string; subagent_type?: string }) => ({ tool_calls: [{ id, name: "task", arguments: args }] });

/** The updates posted to the view: the parent's (child undefined) and each child's. */
const updates = (posted: readonly ToWebview[]): { update: AgentUpdate; child: string | undefined }[] =>
  posted.flatMap((m) => (m.type === "update" ? [{ update: m.update, child: m.child }] : []));

/** The subagent_updates posted, in order. */
const announcements = (posted: readonly ToWebview[]) =>
  updates(posted).flatMap(({ update, child }) => (update.sessionUpdate === "subagent_update" && child === undefined ? [update] : []));

describe("protocol: subagents against dsh-acp", () => {
  const runs = dshAcpRuns("subagents");
  const chat = (script: readonly unknown[], posted: ToWebview[], onPost: (m: ToWebview, c: ChatController) => void = () => undefined): ChatController =>
    runs.chat(script, {
      post: (m, c) => {
        posted.push(m);
        onPost(m, c);
      },
    });

  it("shows an explore task's child in its block: announced first, its read under its own id, the task's card linked, done; load shows it again", async () => {
    writeFileSync(path.join(runs.ws(), "greeting.txt"), "hello\n");
    const posted: ToWebview[] = [];
    const c = chat(
      [
        task("t1", { description: "find the greeting", prompt: "What does greeting.txt say?", subagent_type: "explore" }),
        { tool_calls: [{ id: "r1", name: "read", arguments: { file_path: "greeting.txt" } }] },
        { text: "It says hello." },
        { text: "The greeting is hello." },
      ],
      posted,
    );
    assert.equal(await c.prompt("What is the greeting?"), "end_turn");

    const [first, ...later] = announcements(posted);
    assert.ok(first, "the child is announced");
    const child = first.sessionId;
    assert.equal(first.title, "find the greeting");
    assert.equal(first.state?.state, "running");
    assert.ok(first.capabilities?.cancel != null, "the child can be stopped alone");
    assert.deepEqual(later.at(-1)?.state, { state: "idle", stopReason: "end_turn" }, "it ends done");

    const all = updates(posted);
    const announced = all.findIndex(({ update }) => update.sessionUpdate === "subagent_update");
    assert.ok(all.findIndex((u) => u.child === child) > announced, "no child update before its announcement");
    const read = all.filter(({ update, child: from }) => from === child && (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update"));
    assert.ok(read.length > 0 && read.every(({ update }) => "toolCallId" in update && update.toolCallId === childCallId(child, "r1")), "the child's read is its own card");
    const childText = all.flatMap(({ update, child: from }) => (from === child && update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? [update.content.text] : [])).join("");
    assert.equal(childText, "It says hello.");
    assert.ok(
      all.some(({ update, child: from }) => from === undefined && (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") && update.toolCallId === "t1" && update._meta?.["subagent_session_id"] === child),
      "the task's card is linked to the child",
    );

    const sessionId = c.currentSession;
    assert.ok(sessionId);
    await runs.stopFirst(); // a session is open in one process at a time
    const replayed: ToWebview[] = [];
    const again = chat([], replayed);
    await again.loadSession(sessionId);
    assert.deepEqual(announcements(replayed).map((a) => [a.sessionId, a.title, a.state?.state]), announcements(posted).map((a) => [a.sessionId, a.title, a.state?.state]), "load announces the child the same way");
    assert.ok(updates(replayed).some(({ update, child: from }) => from === child && update.sessionUpdate === "tool_call" && update.toolCallId === childCallId(child, "r1")), "and replays its read in its block");
  });

  it("stops a child with its own Stop: its question is cancelled, it ends cancelled, and the parent's turn goes on", async () => {
    writeFileSync(path.join(runs.ws(), "run.sh"), "touch ran\n");
    stub.warningAnswer = () => new Promise<undefined>(() => undefined); // the question stays open until the child is stopped
    const posted: ToWebview[] = [];
    const c = chat(
      [
        task("t1", { description: "run the script", prompt: "Run run.sh." }),
        { tool_calls: [{ id: "b1", name: "bash", arguments: { command: "sh run.sh", description: "Run it" } }] },
        { text: "The subagent was stopped; nothing ran." },
      ],
      posted,
      (m, controller) => {
        const child = announcements(posted)[0]?.sessionId;
        if (m.type === "permission" && child !== undefined && m.toolCallId === childCallId(child, "b1")) void controller.handle({ type: "stopSubagent", sessionId: child });
      },
    );
    assert.equal(await c.prompt("Run the script through a subagent."), "end_turn", "the parent's turn is not cancelled");
    assert.ok(posted.some((m) => m.type === "permissionResolved"), "the child's question was withdrawn");
    assert.equal(announcements(posted).at(-1)?.state?.state, "idle");
    assert.deepEqual(announcements(posted).at(-1)?.state, { state: "idle", stopReason: "cancelled" });
    assert.equal(existsSync(path.join(runs.ws(), "ran")), false, "the stopped child's command never ran");
    const parentText = updates(posted).flatMap(({ update, child }) => (child === undefined && update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? [update.content.text] : [])).join("");
    assert.equal(parentText, "The subagent was stopped; nothing ran.");
  });
});
