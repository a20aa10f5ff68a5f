import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
// The unstable entrypoint: the stable one refuses the unstable updates
// (subagent_update) this client advertises; see ./unstable for the types.
import * as acp from "@agentclientprotocol/sdk/unstable";
import type {
  AgentCapabilities,
  ContentBlock,
  InitializeResponse,
  ListSessionsResponse,
  LoadSessionResponse,
  NewSessionResponse,
  PromptResponse,
  ResumeSessionResponse,
  SessionConfigOption,
} from "@agentclientprotocol/sdk";
import { initializeRequest } from "./capabilities";
import { FirstChunkMarks, type ChunkMark } from "./chunkMarks";
import type { AgentExit, ClientHandlers } from "./handlers";
import { Lineage } from "./lineage";
import { SerialQueue } from "./serialQueue";
import { STEERING_METHOD, steeringParams, steeringSupported, steerOutcome, type SteerOutcome } from "../steering/steering";
import { webStdio } from "./stdio";
import { agentNotification } from "./unstable";

/** How to run dsh-acp and what to answer it. */
export interface AgentClientOptions {
  /** The dsh-acp binary. */
  readonly binary: string;
  /** Extra command-line arguments. */
  readonly args?: readonly string[];
  /** The working directory of the process. */
  readonly cwd: string;
  /** Returns the environment for each start (the API key may have changed). */
  readonly env: () => Promise<NodeJS.ProcessEnv> | NodeJS.ProcessEnv;
  /** The extension's version, sent as clientInfo.version. */
  readonly version: string;
  /** The editor's answers to the agent. */
  readonly handlers: ClientHandlers;
  /** Called when the process exits without dispose(). */
  readonly onExit?: (exit: AgentExit) => void;
  /** Called after a restart has initialized the new process. */
  readonly onRestarted?: () => void;
  /** Restarts allowed in a row without a completed prompt in between (default 3). */
  readonly maxRestarts?: number;
  /** Told when each prompt's first answer chunk reached the client and the handlers (for the latency probe); nothing is marked without it. */
  readonly onFirstChunk?: (mark: ChunkMark) => void;
}

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly conn: acp.ClientConnection;
  readonly initialized: InitializeResponse;
}

const STDERR_TAIL = 4096;

/**
 * One dsh-acp process and the ACP connection to it. Session updates reach
 * the handlers in order per session, and prompt() resolves only after
 * every update the agent sent before its answer has been applied. When the
 * process dies unexpectedly it is started again (and onExit says so).
 */
export class AgentClient {
  private readonly options: AgentClientOptions;
  private running: Promise<Running> | undefined;
  private readonly queues = new Map<string, SerialQueue>();
  private readonly lineage = new Lineage();
  private disposed = false;
  private restarts = 0;
  private stderr = "";
  private readonly marks: FirstChunkMarks | undefined;

  constructor(options: AgentClientOptions) {
    this.options = options;
    this.marks = options.onFirstChunk ? new FirstChunkMarks(options.onFirstChunk) : undefined;
  }

  /** Starts the process (once) and returns the agent's initialize answer. */
  async start(): Promise<InitializeResponse> {
    return (await this.connection()).initialized;
  }

  /** What the agent said it can do (initialize's agentCapabilities). */
  async capabilities(): Promise<AgentCapabilities> {
    return (await this.connection()).initialized.agentCapabilities ?? {};
  }

  /** session/delete: the agent forgets a stored session (only when it advertises sessionCapabilities.delete). */
  async deleteSession(sessionId: string): Promise<void> {
    const { conn } = await this.connection();
    await conn.agent.request("session/delete", { sessionId });
  }

  /** The process id, when running. */
  async pid(): Promise<number | undefined> {
    return (await this.connection()).child.pid;
  }

  /** session/new in cwd. */
  async newSession(cwd: string): Promise<NewSessionResponse> {
    const { conn } = await this.connection();
    return conn.agent.request("session/new", { cwd, mcpServers: [] });
  }

  /** session/load: the agent replays the session's history as updates before answering. */
  async loadSession(sessionId: string, cwd: string): Promise<LoadSessionResponse> {
    const { conn } = await this.connection();
    const res = await conn.agent.request("session/load", { sessionId, cwd, mcpServers: [] });
    await this.queue(sessionId).idle();
    return res;
  }

  /** session/resume: the session carries on without a replay. */
  async resumeSession(sessionId: string, cwd: string): Promise<ResumeSessionResponse> {
    const { conn } = await this.connection();
    return conn.agent.request("session/resume", { sessionId, cwd, mcpServers: [] });
  }

  /** session/list, for cwd when given. */
  async listSessions(cwd?: string): Promise<ListSessionsResponse> {
    const { conn } = await this.connection();
    return conn.agent.request("session/list", cwd === undefined ? {} : { cwd });
  }

  /**
   * session/prompt; resolves with the stop reason after every update sent
   * before the answer has reached the handlers.
   */
  async prompt(sessionId: string, prompt: ContentBlock[]): Promise<PromptResponse> {
    const { conn } = await this.connection();
    this.marks?.arm(sessionId);
    let res: PromptResponse;
    try {
      res = await conn.agent.request("session/prompt", { sessionId, prompt });
    } finally {
      this.marks?.disarm(sessionId);
    }
    await this.queue(sessionId).idle();
    this.restarts = 0;
    return res;
  }

  /**
   * _session/steering: the running turn of sessionId reads prompt at its
   * next step ("injected"); "idle" when no turn runs (nothing is started),
   * "unsupported" when the agent does not advertise steering.
   */
  async steer(sessionId: string, prompt: ContentBlock[]): Promise<SteerOutcome> {
    const { conn, initialized } = await this.connection();
    if (!steeringSupported(initialized)) return "unsupported";
    return steerOutcome(await conn.agent.request(STEERING_METHOD, steeringParams(sessionId, prompt)));
  }

  /** authenticate with methodId (after a sign-in terminal stored a key). */
  async authenticate(methodId: string): Promise<void> {
    const { conn } = await this.connection();
    await conn.agent.request("authenticate", { methodId });
  }

  /** The dsh-acp binary this client runs. */
  get binary(): string {
    return this.options.binary;
  }

  /** session/cancel: the running turn ends with stopReason "cancelled". */
  async cancel(sessionId: string): Promise<void> {
    const { conn } = await this.connection();
    await conn.agent.notify("session/cancel", { sessionId });
  }

  /** session/set_config_option; returns the session's options after the change. */
  async setConfigOption(sessionId: string, configId: string, value: string): Promise<SessionConfigOption[]> {
    const { conn } = await this.connection();
    const res = await conn.agent.request("session/set_config_option", { sessionId, configId, value });
    return res.configOptions;
  }

  /** Stops the process for good. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    let r: Running;
    try {
      r = await running;
    } catch {
      return;
    }
    r.conn.close();
    if (r.child.exitCode === null && r.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => r.child.once("exit", () => resolve()));
      r.child.stdin.destroy();
      const kill = setTimeout(() => r.child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(kill);
    }
  }

  // A child session's traffic shares its parent's queue: the child's announcement comes before it.
  private queue(sessionId: string): SerialQueue {
    const key = this.lineage.root(sessionId);
    let q = this.queues.get(key);
    if (!q) {
      q = new SerialQueue();
      this.queues.set(key, q);
    }
    return q;
  }

  private connection(): Promise<Running> {
    if (this.disposed) return Promise.reject(new Error("the dsh-acp client was disposed"));
    if (!this.running) {
      const starting = this.launch();
      this.running = starting;
      starting.catch(() => {
        if (this.running === starting) this.running = undefined;
      });
    }
    return this.running;
  }

  private async launch(): Promise<Running> {
    const env = await this.options.env();
    const child = spawn(this.options.binary, [...(this.options.args ?? [])], {
      cwd: this.options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (e) => reject(new Error(`starting ${this.options.binary}: ${e.message}`, { cause: e })));
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (d: string) => {
      this.stderr = (this.stderr + d).slice(-STDERR_TAIL);
    });
    await spawned;
    const { output, input } = webStdio(child);
    const handlers = this.options.handlers;
    const conn = acp
      .client({ name: "dsh-vscode" })
      .onNotification("session/update", ({ params }) => {
        const n = agentNotification(params);
        if (!n) return;
        if (n.update.sessionUpdate === "subagent_update") this.lineage.announce(n.sessionId, n.update.sessionId);
        const track = this.marks?.arrived(n);
        if (!track) {
          void this.queue(n.sessionId).run(() => handlers.sessionUpdate(n));
          return;
        }
        void this.queue(n.sessionId).run(async () => {
          track.applied();
          try {
            await handlers.sessionUpdate(n);
          } finally {
            track.settled();
          }
        });
      })
      .onRequest("session/request_permission", async ({ params, signal }) => {
        // Updates announcing the call come first, so its card exists when the prompt shows.
        await this.queue(params.sessionId).idle();
        return handlers.requestPermission(params, signal);
      })
      .onRequest("elicitation/create", async ({ params, signal }) => {
        // As for a permission: the updates before it (the asking call's card) come first.
        if ("sessionId" in params && typeof params.sessionId === "string") await this.queue(params.sessionId).idle();
        return handlers.createElicitation(params, signal);
      })
      .onRequest("fs/read_text_file", ({ params }) => handlers.readTextFile(params))
      .onRequest("fs/write_text_file", async ({ params }) => {
        await handlers.writeTextFile(params);
        return {};
      })
      .connect(acp.ndJsonStream(output, input));
    child.once("exit", (code, signal) => this.exited(code, signal));
    const initialized = await conn.agent.request("initialize", initializeRequest(this.options.version));
    return { child, conn, initialized };
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.disposed) return;
    const restarting = this.restarts < (this.options.maxRestarts ?? 3);
    const stderrTail = this.stderr;
    this.stderr = "";
    this.running = undefined;
    this.queues.clear();
    this.lineage.clear();
    this.options.onExit?.({ code, signal, stderrTail, restarting });
    if (!restarting) return;
    this.restarts++;
    this.connection().then(
      () => this.options.onRestarted?.(),
      () => undefined,
    );
  }
}
