import { strict as assert } from "node:assert";
import { beforeEach, describe, it } from "node:test";
import type { CreateElicitationRequest, ElicitationContentValue, ElicitationSchema } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import { Elicitations, outcomeText } from "../../src/elicitation/elicitations";
import { formFields, pickProblem, textProblem, type Field } from "../../src/elicitation/form";
import { choiceItems, QuickInputPrompter } from "../../src/elicitation/quickInput";
import { walkForm, type FieldPrompter, type Step, type StepResult } from "../../src/elicitation/walk";
import { stub } from "../stubs/control";
import type { StubQuickInput } from "../stubs/vscode";

beforeEach(() => stub.reset());

/** The fields of schema, which must be showable. */
function fields(schema: ElicitationSchema): readonly Field[] {
  const f = formFields(schema);
  assert.ok(f.ok, f.ok ? "" : f.reason);
  return f.fields;
}

/** What ask_user sends: one field per question, an enum for options, a string otherwise. */
const ASK_USER: ElicitationSchema = {
  type: "object",
  properties: {
    q1: { type: "string", title: "Which database should the service use?", enum: ["Postgres", "SQLite"] },
    q2: { type: "array", title: "Which checks should run?", items: { type: "string", enum: ["vet", "lint", "test"] } },
    q3: { type: "string", title: "Anything else?" },
  },
  required: ["q1", "q2"],
};

describe("a form's fields", () => {
  it("reads ask_user's questions as a choice, a multi-select and free text, in order", () => {
    const f = fields(ASK_USER);
    assert.deepEqual(f.map((x) => [x.key, x.kind, x.required, x.title]), [
      ["q1", "choice", true, "Which database should the service use?"],
      ["q2", "multi", true, "Which checks should run?"],
      ["q3", "text", false, "Anything else?"],
    ]);
    const [q1] = f;
    assert.deepEqual(q1?.kind === "choice" ? q1.choices.map((c) => c.value) : [], ["Postgres", "SQLite"]);
  });

  it("reads titled options, numbers, integers, booleans and titled multi-selects; the name stands in for a missing title", () => {
    const f = fields({
      properties: {
        db: { type: "string", oneOf: [{ const: "pg", title: "Postgres", description: "the server" }, { const: "lite", title: "" }] },
        ratio: { type: "number", minimum: 0, maximum: 1 },
        count: { type: "integer", default: 3 },
        ok: { type: "boolean", title: "Go on?" },
        tags: { type: "array", items: { anyOf: [{ const: "a", title: "Alpha" }] } },
      },
    });
    assert.deepEqual(f.map((x) => [x.key, x.kind, x.title]), [["db", "choice", "db"], ["ratio", "number", "ratio"], ["count", "integer", "count"], ["ok", "boolean", "Go on?"], ["tags", "multi", "tags"]]);
    const [db] = f;
    assert.deepEqual(db?.kind === "choice" ? db.choices : [], [{ value: "pg", label: "Postgres", description: "the server" }, { value: "lite", label: "lite" }]);
  });

  it("leaves out an optional field of an unknown type, and refuses a form whose required field has one", () => {
    assert.deepEqual(fields({ properties: { x: { type: "_color" }, y: { type: "string" } } }).map((f) => f.key), ["y"]);
    const f = formFields({ properties: { x: { type: "_color" } }, required: ["x"] });
    assert.equal(f.ok, false);
    assert.match(f.reason, /"x".*"_color"/);
  });
});

describe("checking an answer", () => {
  const text = (over: Partial<Field & { kind: "text" }> = {}): Field & { kind: "text" } => ({ key: "k", title: "k", required: true, kind: "text", ...over });
  const num = (over: Partial<Field & { kind: "number" | "integer" }> = {}): Field & { kind: "number" | "integer" } => ({ key: "k", title: "k", required: true, kind: "number", ...over });
  const cases: { name: string; field: Field & { kind: "text" | "number" | "integer" }; input: string; want: RegExp | undefined }[] = [
    { name: "required, empty", field: text(), input: "", want: /required/ },
    { name: "optional, empty", field: text({ required: false }), input: "", want: undefined },
    { name: "too short", field: text({ minLength: 3 }), input: "ab", want: /At least 3/ },
    { name: "too long", field: text({ maxLength: 2 }), input: "abc", want: /At most 2/ },
    { name: "pattern", field: text({ pattern: "^v\\d+$" }), input: "x1", want: /Must match/ },
    { name: "pattern met", field: text({ pattern: "^v\\d+$" }), input: "v2", want: undefined },
    { name: "a broken pattern checks nothing", field: text({ pattern: "(" }), input: "x", want: undefined },
    { name: "email", field: text({ format: "email" }), input: "nobody", want: /email/ },
    { name: "date", field: text({ format: "date" }), input: "2026-13-45", want: /date/ },
    { name: "date met", field: text({ format: "date" }), input: "2026-12-02", want: undefined },
    { name: "not a number", field: num(), input: "twelve", want: /number/ },
    { name: "blank number", field: num(), input: "  ", want: /number/ },
    { name: "not whole", field: num({ kind: "integer" }), input: "1.5", want: /whole/ },
    { name: "below", field: num({ minimum: 2 }), input: "1", want: /At least 2/ },
    { name: "above", field: num({ maximum: 2 }), input: "3", want: /At most 2/ },
    { name: "in range", field: num({ minimum: 0, maximum: 1 }), input: "0.5", want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = textProblem(c.field, c.input);
      if (c.want === undefined) assert.equal(got, undefined);
      else assert.match(got ?? "", c.want);
    });
  }

  it("counts picks", () => {
    const multi = (over: Partial<Field & { kind: "multi" }> = {}): Field & { kind: "multi" } => ({ key: "k", title: "k", required: true, kind: "multi", choices: [], ...over });
    assert.match(pickProblem(multi(), []) ?? "", /at least one/);
    assert.equal(pickProblem(multi({ required: false }), []), undefined);
    assert.equal(pickProblem(multi({ minItems: 0 }), []), undefined);
    assert.match(pickProblem(multi({ minItems: 2 }), ["a"]) ?? "", /at least 2/);
    assert.match(pickProblem(multi({ maxItems: 1 }), ["a", "b"]) ?? "", /at most 1/);
  });
});

/** A prompter that answers each step from script (by field key), recording the steps. */
class Scripted implements FieldPrompter {
  readonly asked: { key: string; step: Step; previous: ElicitationContentValue | undefined }[] = [];
  constructor(private readonly script: (key: string, n: number) => StepResult) {}
  async ask(field: Field, step: Step, previous: ElicitationContentValue | undefined): Promise<StepResult> {
    this.asked.push({ key: field.key, step, previous });
    return this.script(field.key, this.asked.length);
  }
  async confirm(): Promise<StepResult> {
    return this.script("", 0);
  }
}

const answer = (value: ElicitationContentValue | undefined): StepResult => ({ kind: "answer", value });

describe("walking a form", () => {
  const signal = new AbortController().signal;

  it("accepts with every answer, an optional field left out absent", async () => {
    const p = new Scripted((k) => answer(({ q1: "Postgres", q2: ["vet", "test"], q3: undefined } as Record<string, ElicitationContentValue | undefined>)[k]));
    assert.deepEqual(await walkForm("Two questions", fields(ASK_USER), p, signal), { action: "accept", content: { q1: "Postgres", q2: ["vet", "test"] } });
    assert.deepEqual(p.asked.map((a) => [a.key, a.step.index, a.step.total, a.step.message]), [["q1", 0, 3, "Two questions"], ["q2", 1, 3, "Two questions"], ["q3", 2, 3, "Two questions"]]);
  });

  it("goes back to the previous field with its answer kept", async () => {
    const p = new Scripted((k, n) => (n === 2 ? { kind: "back" } : answer(k === "q1" ? (n === 1 ? "SQLite" : "Postgres") : k === "q2" ? ["lint"] : "no")));
    assert.deepEqual(await walkForm("m", fields(ASK_USER), p, signal), { action: "accept", content: { q1: "Postgres", q2: ["lint"], q3: "no" } });
    assert.deepEqual(p.asked.map((a) => [a.key, a.previous]), [["q1", undefined], ["q2", undefined], ["q1", "SQLite"], ["q2", undefined], ["q3", undefined]]);
  });

  it("declines when the user declines at any step, cancels when they escape", async () => {
    assert.deepEqual(await walkForm("m", fields(ASK_USER), new Scripted((k) => (k === "q2" ? { kind: "decline" } : answer("x"))), signal), { action: "decline" });
    assert.deepEqual(await walkForm("m", fields(ASK_USER), new Scripted(() => ({ kind: "cancel" })), signal), { action: "cancel" });
  });

  it("cancels when the agent withdraws the request mid-walk, asking no further", async () => {
    const c = new AbortController();
    const p = new Scripted(() => {
      c.abort();
      return answer("Postgres");
    });
    assert.deepEqual(await walkForm("m", fields(ASK_USER), p, c.signal), { action: "cancel" });
    assert.equal(p.asked.length, 1);
  });

  it("asks to go on with a form of no fields", async () => {
    assert.deepEqual(await walkForm("Proceed?", [], new Scripted(() => answer(undefined)), signal), { action: "accept", content: {} });
    assert.deepEqual(await walkForm("Proceed?", [], new Scripted(() => ({ kind: "decline" })), signal), { action: "decline" });
  });
});

/** Answers each quick input as it shows with the next of steps. */
function drive(...steps: ((input: StubQuickInput) => void)[]): void {
  stub.onQuickInput = (input) => {
    const step = steps.shift();
    if (!step) throw new Error(`an unexpected step: ${input.title ?? ""}`);
    queueMicrotask(() => step(input));
  };
}
/** The nth quick input shown (the test fails without it). */
function shownInput(n = 0): StubQuickInput {
  const input = stub.quickInputs[n];
  assert.ok(input, `no quick input ${n}`);
  return input;
}

describe("the QuickPick and InputBox steps", () => {
  const prompter = new QuickInputPrompter();
  const step: Step = { index: 0, total: 2, message: "Two questions" };
  const [q1, q2, q3] = fields(ASK_USER);
  assert.ok(q1 && q2 && q3);
  const signal = new AbortController().signal;

  it("asks a choice as a QuickPick titled with the question, n/total, staying open when focus moves", async () => {
    drive((i) => {
      i.choose("SQLite");
      i.accept();
    });
    assert.deepEqual(await prompter.ask(q1, step, undefined, signal), answer("SQLite"));
    const shown = shownInput();
    assert.deepEqual([shown.kind, shown.title], ["pick", "Which database should the service use?"]);
    assert.deepEqual([shown.step, shown.totalSteps, shown.ignoreFocusOut, shown.disposed], [1, 2, true, true]);
    assert.deepEqual(shown.buttons.map((b) => b.tooltip), ["Decline to answer"], "no Back on the first step");
  });

  it("offers Back after the first step, and Decline", async () => {
    drive((i) => i.press("Back"));
    assert.deepEqual(await prompter.ask(q1, { ...step, index: 1 }, undefined, signal), { kind: "back" });
    drive((i) => i.press("Decline to answer"));
    assert.deepEqual(await prompter.ask(q1, step, undefined, signal), { kind: "decline" });
  });

  it("cancels on Escape (the input hides) and when the agent withdraws the request", async () => {
    drive((i) => i.hide());
    assert.deepEqual(await prompter.ask(q1, step, undefined, signal), { kind: "cancel" });
    const c = new AbortController();
    drive(() => c.abort());
    assert.deepEqual(await prompter.ask(q3, step, undefined, c.signal), { kind: "cancel" });
    assert.equal(shownInput(1).visible, false, "the withdrawn input is closed");
  });

  it("asks a multi-select with many picks, and keeps it open until enough are picked", async () => {
    drive((i) => {
      i.accept(); // nothing picked yet: not an answer
      assert.match(i.placeholder ?? "", /Pick at least one/);
      i.choose("vet", "test");
      i.accept();
    });
    assert.deepEqual(await prompter.ask(q2, step, undefined, signal), answer(["vet", "test"]));
    assert.equal(shownInput().canSelectMany, true);
  });

  it("shows the answer given before Back as chosen", async () => {
    drive((i) => {
      assert.deepEqual(i.selectedItems.map((x) => x.label), ["lint"]);
      i.accept();
    });
    assert.deepEqual(await prompter.ask(q2, step, ["lint"], signal), answer(["lint"]));
  });

  it("asks text in an InputBox that refuses what the schema does not allow", async () => {
    const [age] = fields({ properties: { age: { type: "integer", title: "Age?", minimum: 1 } }, required: ["age"] });
    assert.ok(age);
    drive((i) => {
      i.type("0");
      assert.match(i.validationMessage ?? "", /At least 1/);
      i.accept();
      assert.equal(i.visible, true, "an invalid answer keeps it open");
      i.type("42");
      i.accept();
    });
    assert.deepEqual(await prompter.ask(age, step, undefined, signal), answer(42));
  });

  it("leaves an optional text field out when left empty", async () => {
    drive((i) => i.accept());
    assert.deepEqual(await prompter.ask(q3, step, undefined, signal), answer(undefined));
    assert.deepEqual([shownInput().kind, shownInput().prompt], ["input", "Two questions"], "the message when the field has no description");
    assert.match(shownInput().placeholder ?? "", /empty to skip/);
  });

  it("offers Yes / No for a boolean and Skip for an optional choice", () => {
    assert.deepEqual(choiceItems({ key: "b", title: "b", required: true, kind: "boolean" }).map((i) => [i.label, i.value]), [["Yes", true], ["No", false]]);
    assert.deepEqual(choiceItems({ key: "c", title: "c", required: false, kind: "choice", choices: [{ value: "x", label: "X" }] }).map((i) => [i.label, i.value]), [["X", "x"], ["Skip", undefined]]);
  });
});

describe("answering elicitation/create", () => {
  const form = (over: Partial<CreateElicitationRequest> = {}): CreateElicitationRequest => ({ sessionId: "s1", mode: "form", message: "dsh has a question", requestedSchema: ASK_USER, ...over });

  it("walks the form and notes the question and the answers in the chat", async () => {
    const posted: ToWebview[] = [];
    const e = new Elicitations({ post: (m) => posted.push(m), prompter: new Scripted((k) => answer(k === "q1" ? "Postgres" : k === "q2" ? ["vet"] : undefined)) });
    assert.deepEqual(await e.answer(form(), new AbortController().signal), { action: "accept", content: { q1: "Postgres", q2: ["vet"] } });
    assert.deepEqual(posted, [
      { type: "notice", level: "info", text: "dsh asks: dsh has a question" },
      { type: "notice", level: "info", text: "You answered: Which database should the service use? → Postgres; Which checks should run? → vet" },
    ]);
    assert.equal(e.openCount, 0);
  });

  it("notes nothing in the chat for a question of a tool call: its card shows the question and the answer", async () => {
    const posted: ToWebview[] = [];
    const e = new Elicitations({ post: (m) => posted.push(m), prompter: new Scripted((k) => answer(k === "q1" ? "Postgres" : undefined)) });
    assert.deepEqual(await e.answer(form({ toolCallId: "a1" }), new AbortController().signal), { action: "accept", content: { q1: "Postgres" } });
    assert.deepEqual(posted, []);
    assert.deepEqual(await e.answer(form({ toolCallId: null }), new AbortController().signal), { action: "accept", content: { q1: "Postgres" } });
    assert.equal(posted.length, 2, "a null toolCallId is the session's own question: noted");
  });

  it("declines a URL elicitation and a form it cannot show, saying so", async () => {
    const posted: ToWebview[] = [];
    const e = new Elicitations({ post: (m) => posted.push(m), prompter: new Scripted(() => assert.fail("nothing is asked")) });
    const url: CreateElicitationRequest = { sessionId: "s1", mode: "url", message: "Sign in", url: "https://example.com", elicitationId: "e1" };
    assert.deepEqual(await e.answer(url, new AbortController().signal), { action: "decline" });
    assert.deepEqual(await e.answer(form({ requestedSchema: { properties: { c: { type: "_color" } }, required: ["c"] } }), new AbortController().signal), { action: "decline" });
    assert.deepEqual(posted.map((m) => (m.type === "notice" ? m.level : "")), ["error", "error"]);
  });

  it("cancels an open question when the user stops the turn", async () => {
    const e = new Elicitations({
      post: () => undefined,
      prompter: {
        ask: (_f, _s, _p, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve({ kind: "cancel" }))),
        confirm: () => assert.fail("a form with fields"),
      },
    });
    const answered = e.answer(form(), new AbortController().signal);
    await new Promise((r) => setImmediate(r));
    assert.equal(e.openCount, 1);
    e.cancelAll();
    assert.deepEqual(await answered, { action: "cancel" });
  });

  it("says how a form ended", () => {
    assert.equal(outcomeText([], { action: "decline" }), "You declined to answer.");
    assert.equal(outcomeText([], { action: "cancel" }), "The question was cancelled.");
    assert.equal(outcomeText([], { action: "accept", content: {} }), "You answered.");
  });
});
