// A stand-in ACP agent on the official SDK's agent side (which validates
// what the client sends against the schema), run as a process on stdio:
// it plays what dsh-acp's ask_user and exit_plan_mode send (elicitation,
// plan review) before dsh-acp has them, and steering, notices and
// compaction. What it does is chosen by the prompt's first word:
//
//   ask     elicitation/create (ask_user's form), then answers with the response as JSON
//   plan    a switch_mode call asking to implement a plan, then says which was chosen
//   notice  a warning notice and a compaction (in progress, a summary chunk, completed)
//   wait    runs until steered (echoing the steered text as the user's, as dsh-acp does) or cancelled
//   caps    answers with the client capabilities initialize carried, as JSON
//   else    "You said: <text>"
//
// FAKE_ACP_NO_STEERING=1 leaves steering unadvertised (and unserved).
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, ClientCapabilities, ContentBlock, PromptResponse, SessionUpdate } from "@agentclientprotocol/sdk";

const steers = process.env["FAKE_ACP_NO_STEERING"] !== "1";

/** The form ask_user sends for two questions: one with options, one free. */
const ASK_FORM: acp.ElicitationSchema = {
  type: "object",
  properties: {
    q1: { type: "string", title: "Which database should the service use?", enum: ["Postgres", "SQLite"] },
    q2: { type: "string", title: "Anything else I should know?" },
  },
  required: ["q1"],
};

/** The plan exit_plan_mode asks to implement. */
const PLAN = "# Plan\n\n1. Add the v2 client\n2. Run the tests\n";

interface SteeringParams {
  readonly sessionId: string;
  readonly prompt: ContentBlock[];
}

function steeringParams(raw: unknown): SteeringParams {
  const p = raw as Partial<SteeringParams> | null;
  if (p === null || typeof p.sessionId !== "string" || !Array.isArray(p.prompt)) throw acp.RequestError.invalidParams(raw, "sessionId and prompt are required");
  return { sessionId: p.sessionId, prompt: p.prompt };
}

const textOf = (blocks: readonly ContentBlock[]): string => blocks.map((b) => (b.type === "text" ? b.text : "")).join("");

async function say(client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> {
  await client.notify("session/update", { sessionId, update });
}
const text = (t: string): SessionUpdate => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } });

/** What the agent remembers between requests. */
class State {
  capabilities: ClientCapabilities | undefined;
  sessions = 0;
  // The running "wait" turn: steering hands it the steered text; cancel ends it.
  waiting: { readonly sessionId: string; readonly resolve: (steered: string | undefined) => void } | undefined;
}

async function prompt(state: State, client: AgentContext, sessionId: string, words: string): Promise<PromptResponse> {
  const [verb] = words.trim().split(/\s+/);
  switch (verb) {
    case "ask": {
      await say(client, sessionId, { sessionUpdate: "tool_call", toolCallId: "ask1", title: "Ask the user", kind: "other", status: "in_progress" });
      const res = await client.request("elicitation/create", { sessionId, toolCallId: "ask1", mode: "form", message: "dsh has 2 questions", requestedSchema: ASK_FORM });
      await say(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId: "ask1", status: "completed" });
      await say(client, sessionId, text(`Answer: ${JSON.stringify(res)}`));
      return { stopReason: res.action === "cancel" ? "cancelled" : "end_turn" };
    }
    case "plan": {
      await say(client, sessionId, text(PLAN));
      await say(client, sessionId, { sessionUpdate: "tool_call", toolCallId: "plan1", title: "Ready to implement the plan", kind: "switch_mode", status: "pending", rawInput: { plan: PLAN } });
      const res = await client.request("session/request_permission", {
        sessionId,
        toolCall: { toolCallId: "plan1", title: "Ready to implement the plan", kind: "switch_mode", rawInput: { plan: PLAN } },
        options: [
          { optionId: "implement", name: "Implement the plan", kind: "allow_once" },
          { optionId: "keep-planning", name: "Keep planning", kind: "reject_once" },
        ],
      });
      const chosen = res.outcome.outcome === "selected" ? res.outcome.optionId : "cancelled";
      await say(client, sessionId, { sessionUpdate: "tool_call_update", toolCallId: "plan1", status: chosen === "implement" ? "completed" : "failed" });
      await say(client, sessionId, text(chosen === "implement" ? "Implementing the plan." : chosen === "cancelled" ? "Cancelled." : "I will revise the plan."));
      return { stopReason: chosen === "cancelled" ? "cancelled" : "end_turn" };
    }
    case "notice":
      await say(client, sessionId, { sessionUpdate: "notice", severity: "warning", title: "MCP server docs failed to start", description: "exit status 1" });
      await say(client, sessionId, { sessionUpdate: "compaction_update", compactionId: "c1", status: "in_progress" });
      await say(client, sessionId, { sessionUpdate: "compaction_summary_chunk", compactionId: "c1", content: { type: "text", text: "The user asked for a v2 client." } });
      await say(client, sessionId, { sessionUpdate: "compaction_update", compactionId: "c1", status: "completed" });
      await say(client, sessionId, text("Compacted."));
      return { stopReason: "end_turn" };
    case "wait": {
      await say(client, sessionId, text("Working…"));
      const steered = await new Promise<string | undefined>((resolve) => (state.waiting = { sessionId, resolve }));
      state.waiting = undefined;
      if (steered === undefined) return { stopReason: "cancelled" };
      await say(client, sessionId, { sessionUpdate: "user_message_chunk", content: { type: "text", text: steered } });
      await say(client, sessionId, text(`Steered: ${steered}`));
      return { stopReason: "end_turn" };
    }
    case "caps":
      await say(client, sessionId, text(JSON.stringify(state.capabilities ?? null)));
      return { stopReason: "end_turn" };
    default:
      await say(client, sessionId, text(`You said: ${words}`));
      return { stopReason: "end_turn" };
  }
}

/** Serves one client on stdio until it closes the connection. */
function serve(): void {
  const state = new State();
  const app = acp
    .agent({ name: "fake-acp-agent" })
    .onRequest("initialize", ({ params }) => {
      state.capabilities = params.clientCapabilities;
      return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false }, ...(steers ? { _meta: { steering: { supported: true } } } : {}) };
    })
    .onRequest("session/new", () => ({ sessionId: `fake-${++state.sessions}` }))
    // A client that switches to this agent picks its session up again (it keeps no history) and lists none.
    .onRequest("session/resume", () => ({}))
    .onRequest("session/load", () => ({}))
    .onRequest("session/list", () => ({ sessions: [] }))
    .onRequest("session/prompt", ({ params, client }) => prompt(state, client, params.sessionId, textOf(params.prompt)))
    .onNotification("session/cancel", ({ params }) => {
      if (state.waiting?.sessionId === params.sessionId) state.waiting.resolve(undefined);
    });
  if (steers) {
    app.onRequest("_session/steering", steeringParams, ({ params }) => {
      if (state.waiting?.sessionId !== params.sessionId) return { outcome: "promptRequired", reason: "noRunningTurn" };
      state.waiting.resolve(textOf(params.prompt));
      return { outcome: "injected" };
    });
  }
  const connection = app.connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
  void connection.closed.then(() => process.exit(0));
}

serve();
