import * as os from "node:os";
import * as vscode from "vscode";
import { AgentClient } from "./client/agentClient";
import { resolveAgentBinary } from "./client/binary";
import type { ChunkMark } from "./client/chunkMarks";
import type { ClientHandlers } from "./client/handlers";
import { offerSignIn, type SignInResult, type SignInWay } from "./auth/signIn";
import { COMMANDS } from "./commands";
import { errorMessage } from "./errors";
import { API_KEY_SECRET } from "./secrets";
import { agentArgs, agentEnv, readSettings } from "./settings";

/** The directory the agent and its sessions run in: the first workspace folder, else home. */
export function workspaceCwd(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
}

/** What a restart tells the chat, before and after. */
export interface RestartHooks {
  /** The process is about to be replaced (prompts should wait). */
  restarting(): void;
  /** The new process is running (ok), or failed to start. */
  restarted(ok: boolean): Promise<void>;
}

/**
 * The window's one dsh-acp process, started on first use with the
 * settings and the API key of that moment. When it dies it is restarted
 * and the user is told; a missing binary is reported with the install
 * command.
 */
export class AgentHost {
  private client: Promise<AgentClient> | undefined;
  private readonly secrets: vscode.SecretStorage;
  private readonly handlers: ClientHandlers;
  private readonly version: string;
  private readonly restarts: RestartHooks;
  private readonly onFirstChunk: ((mark: ChunkMark) => void) | undefined;

  /** onFirstChunk, when given, is told each prompt's first answer chunk's marks (see AgentClientOptions). */
  constructor(secrets: vscode.SecretStorage, handlers: ClientHandlers, version: string, restarts: RestartHooks, onFirstChunk?: (mark: ChunkMark) => void) {
    this.secrets = secrets;
    this.handlers = handlers;
    this.version = version;
    this.restarts = restarts;
    this.onFirstChunk = onFirstChunk;
  }

  /** Whether dsh-acp was asked to start (get()) and not stopped for good since: activation alone starts nothing. */
  get started(): boolean {
    return this.client !== undefined;
  }

  /** The running client (started and initialized on first call). */
  get(): Promise<AgentClient> {
    this.client ??= this.track(this.start());
    return this.client;
  }

  /** Offers to set the API key or to sign in in a terminal (the agent asked for a key), as way says (see offerSignIn). */
  async signIn(way: SignInWay): Promise<SignInResult> {
    const client = await this.get();
    const init = await client.start();
    return offerSignIn({
      init,
      binary: client.binary,
      setApiKey: async () => {
        await vscode.commands.executeCommand(COMMANDS.setApiKey);
      },
      authenticate: (methodId) => client.authenticate(methodId),
    }, way);
  }

  /**
   * Starts the process again with the settings and key of now (they
   * changed), once the old one has exited (a session is open in one
   * process at a time), telling the hooks before and after, so the chat
   * picks its session up again. Nothing happens when no process was
   * started yet: the next get() starts one with the new settings.
   */
  async restart(): Promise<void> {
    const old = this.client;
    if (!old) return;
    this.restarts.restarting();
    const stopped = old.then(
      (c) => c.dispose(),
      () => undefined,
    );
    const next = this.track(stopped.then(() => this.start()));
    this.client = next;
    let ok = true;
    try {
      await next;
    } catch {
      ok = false; // track() has told the user
    }
    await this.restarts.restarted(ok);
  }

  /** Stops the process for good. */
  async dispose(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    if (old) await (await old.catch(() => undefined))?.dispose();
  }

  /** starting, forgotten (and reported) when it fails so that the next get() tries again. */
  private track(starting: Promise<AgentClient>): Promise<AgentClient> {
    starting.catch((e: unknown) => {
      if (this.client === starting) this.client = undefined;
      void vscode.window.showErrorMessage(`dsh: ${errorMessage(e)}`);
    });
    return starting;
  }

  private async start(): Promise<AgentClient> {
    const settings = readSettings();
    const binary = await resolveAgentBinary({ configuredPath: settings.path });
    const client = new AgentClient({
      binary,
      args: agentArgs(settings),
      cwd: workspaceCwd(),
      env: async () => agentEnv(readSettings(), await this.secrets.get(API_KEY_SECRET)),
      version: this.version,
      handlers: this.handlers,
      onExit: (exit) => {
        const how = exit.signal ? `signal ${exit.signal}` : `status ${exit.code ?? "?"}`;
        const what = exit.restarting ? "restarting it" : "not restarting it (it keeps dying)";
        const tail = exit.stderrTail.trim().split("\n").slice(-3).join(" | ");
        void vscode.window.showWarningMessage(`dsh: dsh-acp exited (${how}); ${what}.${tail ? ` Last output: ${tail}` : ""}`);
        if (!exit.restarting) this.client = undefined;
      },
      onRestarted: () => void this.restarts.restarted(true),
      onFirstChunk: this.onFirstChunk,
    });
    await client.start();
    return client;
  }
}
