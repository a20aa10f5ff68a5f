import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import type { EditorContext } from "../../src/session/editorContext";
import { PromptQueue } from "../../src/steering/promptQueue";
import { steeringParams, steeringSupported, steerOutcome, type SteerOutcome } from "../../src/steering/steering";
import { TurnInput } from "../../src/steering/turnInput";
import { FakeAgent } from "../fakes/agent";

describe("the steering extension", () => {
  const cases: { name: string; meta: Record<string, unknown> | null | undefined; want: boolean }[] = [
    { name: "advertised", meta: { steering: { supported: true } }, want: true },
    { name: "said false", meta: { steering: { supported: false } }, want: false },
    { name: "a string, not true", meta: { steering: { supported: "true" } }, want: false },
    { name: "no steering member", meta: { other: 1 }, want: false },
    { name: "steering is null", meta: { steering: null }, want: false },
    { name: "no _meta", meta: undefined, want: false },
    { name: "_meta is null", meta: null, want: false },
  ];
  for (const c of cases) it(`reads steering support: ${c.name}`, () => assert.equal(steeringSupported({ _meta: c.meta }), c.want));

  it("asks the agent not to start a turn of its own when none runs", () => {
    assert.deepEqual(steeringParams("s1", [{ type: "text", text: "use v2" }]), { sessionId: "s1", prompt: [{ type: "text", text: "use v2" }], _meta: { steering: { idleBehavior: "promptRequired" } } });
  });

  it("reads the outcome", () => {
    assert.equal(steerOutcome({ outcome: "injected" }), "injected");
    assert.equal(steerOutcome({ outcome: "promptRequired", reason: "noRunningTurn" }), "idle");
    assert.equal(steerOutcome({ outcome: "startedNewTurn" }), "injected", "the agent took it, though it was asked not to start a turn");
  });
});

describe("the prompt queue", () => {
  it("keeps prompts oldest first, tells every change, and takes one back by id", () => {
    const seen: string[][] = [];
    const q = new PromptQueue((items) => seen.push(items.map((p) => p.text)));
    const a = q.add("a", []);
    q.add("b", []);
    assert.equal(q.remove("nope"), false);
    assert.equal(q.remove(a.id), true);
    q.add("c", []);
    assert.equal(q.take()?.text, "b");
    assert.deepEqual(q.clear().map((p) => p.text), ["c"]);
    assert.deepEqual(q.clear(), [], "clearing an empty queue tells nothing");
    assert.deepEqual(seen, [["a"], ["a", "b"], ["b"], ["b", "c"], ["c"], []]);
  });
});

/** Turns that run one prompt at a time; a running one ends when end() is called. */
class FakeTurns {
  isRunning = false;
  readonly prompts: string[] = [];
  private finish: () => void = () => undefined;
  ended: () => void = () => undefined;
  async prompt(text: string, _contexts: readonly EditorContext[]): Promise<string | undefined> {
    if (this.isRunning) return undefined;
    this.isRunning = true;
    this.prompts.push(text);
    await new Promise<void>((resolve) => (this.finish = resolve));
    this.isRunning = false;
    this.ended();
    return "end_turn";
  }
  end(): void {
    this.finish();
  }
}

/** An agent answering steering with outcome; one that does not steer at all unless steers. */
class SteeringAgent extends FakeAgent {
  readonly steered: ContentBlock[][] = [];
  readonly steer?: (sessionId: string, prompt: ContentBlock[]) => Promise<SteerOutcome>;
  constructor(outcome: () => SteerOutcome | Promise<SteerOutcome>, steers: boolean) {
    super();
    if (steers) {
      this.steer = async (_s, prompt) => {
        this.steered.push(prompt);
        return outcome();
      };
    }
  }
}

const settle = () => new Promise((r) => setImmediate(r));

function setup(outcome: () => SteerOutcome | Promise<SteerOutcome>, agentSteers = true) {
  const turns = new FakeTurns();
  const agent = new SteeringAgent(outcome, agentSteers);
  const posted: ToWebview[] = [];
  const input = new TurnInput({ turns, agent: async () => agent, session: () => "s1", post: (m) => posted.push(m) });
  turns.ended = () => input.turnEnded();
  return { turns, agent, posted, input };
}
const queues = (posted: ToWebview[]) => posted.flatMap((m) => (m.type === "queue" ? [m.items.map((i) => i.text)] : []));

describe("what the user sends during a turn", () => {
  it("is a prompt when no turn runs", async () => {
    const { turns, input } = setup(() => "injected");
    const done = input.send("hello", [], "steer");
    await settle();
    assert.deepEqual(turns.prompts, ["hello"]);
    turns.end();
    assert.equal(await done, "end_turn");
  });

  it("steers the running turn: sent to the agent with its context, shown pending, no prompt", async () => {
    const { turns, agent, posted, input } = setup(() => "injected");
    void input.send("first", [], "steer");
    await settle();
    await input.send("use the v2 API instead", [{ path: "/ws/a.go" }], "steer");
    assert.deepEqual(agent.steered, [[{ type: "text", text: "use the v2 API instead" }, { type: "resource_link", uri: "file:///ws/a.go", name: "a.go" }]]);
    assert.deepEqual(posted, [{ type: "steer", text: "use the v2 API instead", state: "sending" }]);
    assert.deepEqual(turns.prompts, ["first"]);
  });

  it("queues what is sent to be queued, shows it, and sends it once the turn ends, oldest first", async () => {
    const { turns, agent, posted, input } = setup(() => "injected");
    void input.send("first", [], "steer");
    await settle();
    await input.send("second", [], "queue");
    await input.send("third", [], "queue");
    assert.equal(agent.steered.length, 0);
    assert.deepEqual(queues(posted), [["second"], ["second", "third"]]);
    turns.end();
    await settle();
    assert.deepEqual(turns.prompts, ["first", "second"]);
    assert.deepEqual(queues(posted).at(-1), ["third"], "shown as queued until its turn starts");
    turns.end();
    await settle();
    assert.deepEqual(turns.prompts, ["first", "second", "third"]);
    assert.deepEqual(queues(posted).at(-1), []);
  });

  it("puts a new prompt after the queued ones, even between two turns", async () => {
    const { turns, input } = setup(() => "injected");
    void input.send("first", [], "steer");
    await settle();
    await input.send("second", [], "queue");
    turns.end();
    await Promise.resolve(); // the first turn has ended and the second is taken from the queue
    await input.send("third", [], "queue");
    await settle();
    turns.end();
    await settle();
    assert.deepEqual(turns.prompts, ["first", "second", "third"]);
  });

  it("queues a slash command rather than steering with it (the agent runs it as a prompt)", async () => {
    const { agent, posted, input } = setup(() => "injected");
    void input.send("first", [], "steer");
    await settle();
    await input.send("  /compact", [], "steer");
    assert.equal(agent.steered.length, 0);
    assert.deepEqual(queues(posted), [["  /compact"]]);
  });

  it("queues when the agent does not steer, and stops asking it", async () => {
    const { turns, agent, posted, input } = setup(() => "unsupported");
    void input.send("first", [], "steer");
    await settle();
    await input.send("a", [], "steer");
    await input.send("b", [], "steer");
    assert.equal(agent.steered.length, 1, "asked once");
    assert.deepEqual(posted.filter((m) => m.type === "steer"), [{ type: "steer", text: "a", state: "sending" }, { type: "steer", text: "a", state: "dropped" }]);
    assert.deepEqual(queues(posted).at(-1), ["a", "b"]);
    assert.deepEqual(turns.prompts, ["first"]);
  });

  it("queues without asking an agent that has no steering at all", async () => {
    const { posted, input } = setup(() => assert.fail("not asked"), false);
    void input.send("first", [], "steer");
    await settle();
    await input.send("a", [], "steer");
    assert.deepEqual(queues(posted), [["a"]]);
  });

  it("sends the message as a prompt when the turn ended while the agent was asked", async () => {
    const running: { turns?: FakeTurns } = {};
    const s = setup(() => {
      running.turns?.end();
      return "idle";
    });
    running.turns = s.turns;
    void s.input.send("first", [], "steer");
    await settle();
    void s.input.send("late", [], "steer");
    await settle();
    assert.deepEqual(s.turns.prompts, ["first", "late"]);
    assert.deepEqual(queues(s.posted), [], "never queued");
  });

  it("queues, saying so, when the steering request fails", async () => {
    const { posted, input } = setup(() => Promise.reject(new Error("boom")));
    void input.send("first", [], "steer");
    await settle();
    await input.send("a", [], "steer");
    assert.ok(posted.some((m) => m.type === "notice" && m.level === "error" && /boom.*queued/.test(m.text)));
    assert.deepEqual(queues(posted), [["a"]]);
  });

  it("drops the queue on Stop, saying so, and sends a queued prompt taken back never", async () => {
    const { turns, posted, input } = setup(() => "injected");
    void input.send("first", [], "steer");
    await settle();
    await input.send("a", [], "queue");
    await input.send("b", [], "queue");
    const last = posted.filter((m) => m.type === "queue").at(-1);
    input.unqueue(last?.type === "queue" ? (last.items[0]?.id ?? "") : "");
    assert.deepEqual(queues(posted).at(-1), ["b"]);
    input.stopped();
    assert.deepEqual(queues(posted).at(-1), []);
    assert.ok(posted.some((m) => m.type === "notice" && m.text.includes("queued message was not sent")));
    turns.end();
    await settle();
    assert.deepEqual(turns.prompts, ["first"]);
  });

  it("ignores a blank message", async () => {
    const { turns, input } = setup(() => "injected");
    assert.equal(await input.send("  ", [], "steer"), undefined);
    assert.deepEqual(turns.prompts, []);
  });
});
