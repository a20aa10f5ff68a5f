import { strict as assert } from "node:assert";
import type { ReviewRow, ToWebview } from "../../src/chat/messages";
import type { AgentNotification } from "../../src/client/unstable";
import type { Memento } from "../../src/review/storedReviews";
import { stub } from "../stubs/control";
import type { FakeAgent } from "./agent";

/** A completed edit call of session s1 whose diff card changes p from oldText (null: created) to newText. */
export function completedEdit(id: string, p: string, oldText: string | null, newText: string): AgentNotification {
  return {
    sessionId: "s1",
    update: { sessionUpdate: "tool_call", toolCallId: id, title: "Edit", kind: "edit", status: "completed", content: [{ type: "diff", path: p, oldText, newText }] },
  };
}

/** The review rows last posted to the view (none: empty). */
export function lastReviewRows(posted: readonly ToWebview[]): readonly ReviewRow[] {
  const m = posted.filter((x) => x.type === "review").at(-1);
  return m?.type === "review" ? m.files : [];
}

/** The text blocks of each prompt the agent was sent. */
export function promptTexts(agent: FakeAgent): string[][] {
  return agent.prompts.map((p) => p.map((b) => (b.type === "text" ? b.text : "")));
}

/** The user types text into p's open editor (unsaved: the review reads the editor's text). */
export function userEdits(p: string, text: string): void {
  const doc = stub.documents.find((d) => d.uri.fsPath === p);
  assert.ok(doc, `${p} is open in the editor`);
  doc.text = text;
  doc.isDirty = true;
}

/** The workspace state as VS Code keeps it: values go through JSON. */
export class FakeMemento implements Memento {
  readonly values = new Map<string, string>();
  get(key: string): unknown {
    const v = this.values.get(key);
    return v === undefined ? undefined : JSON.parse(v);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, JSON.stringify(value));
  }
}
