import * as os from "node:os";
import * as vscode from "vscode";
import { AgentClient } from "./client/agentClient";
import { resolveAgentBinary } from "./client/binary";
import type { ClientHandlers } from "./client/handlers";
import { offerSignIn } from "./auth/signIn";
import { COMMANDS } from "./commands";
import { errorMessage } from "./errors";
import { API_KEY_SECRET } from "./secrets";
import { agentArgs, agentEnv, readSettings } from "./settings";

/** The directory the agent and its sessions run in: the first workspace folder, else home. */
export function workspaceCwd(): string {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
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
  private readonly onRestarted: () => void;

  constructor(secrets: vscode.SecretStorage, handlers: ClientHandlers, version: string, onRestarted: () => void) {
    this.secrets = secrets;
    this.handlers = handlers;
    this.version = version;
    this.onRestarted = onRestarted;
  }

  /** The running client (started and initialized on first call). */
  get(): Promise<AgentClient> {
    if (!this.client) {
      const starting = this.start();
      this.client = starting;
      starting.catch((e: unknown) => {
        if (this.client === starting) this.client = undefined;
        void vscode.window.showErrorMessage(`dsh: ${errorMessage(e)}`);
      });
    }
    return this.client;
  }

  /** Offers to set the API key or to sign in in a terminal (the agent asked for a key). */
  async signIn(): Promise<void> {
    const client = await this.get();
    const init = await client.start();
    await offerSignIn({
      init,
      binary: client.binary,
      setApiKey: async () => {
        await vscode.commands.executeCommand(COMMANDS.setApiKey);
      },
      authenticate: (methodId) => client.authenticate(methodId),
    });
  }

  /** Stops the process; the next get() starts a new one (settings or key changed). */
  async restart(): Promise<void> {
    const old = this.client;
    this.client = undefined;
    if (old) await (await old.catch(() => undefined))?.dispose();
  }

  /** Stops the process for good. */
  async dispose(): Promise<void> {
    await this.restart();
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
      onRestarted: this.onRestarted,
    });
    await client.start();
    return client;
  }
}
