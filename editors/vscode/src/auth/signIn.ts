import * as vscode from "vscode";
import type { AuthMethod, InitializeResponse } from "@agentclientprotocol/sdk";

/** ACP's auth-required error code. */
export const AUTH_REQUIRED = -32000;

/** The sign-in method run in a terminal, as the agent offers it. */
export type TerminalAuthMethod = Extract<AuthMethod, { type: "terminal" }>;

/** Whether e is the agent's auth-required error (no usable API key). */
export function isAuthRequired(e: unknown): boolean {
  return e !== null && typeof e === "object" && (e as { code?: unknown }).code === AUTH_REQUIRED;
}

/** The agent's terminal sign-in method, if it offers one. */
export function terminalAuthMethod(init: Pick<InitializeResponse, "authMethods">): TerminalAuthMethod | undefined {
  // The tag is read as the wire has it: a method of a kind this SDK does not know may come too.
  return init.authMethods?.find((m): m is TerminalAuthMethod => (m as { type?: unknown }).type === "terminal");
}

/**
 * Runs the agent's sign-in (binary with the method's args and env) in a
 * VS Code terminal and resolves when the user closes it.
 */
export function runSignInTerminal(binary: string, method: TerminalAuthMethod): Promise<void> {
  const terminal = vscode.window.createTerminal({
    name: `dsh: ${method.name}`,
    shellPath: binary,
    shellArgs: method.args ?? [],
    env: method.env ?? {},
  });
  terminal.show();
  return new Promise<void>((resolve) => {
    const sub = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      sub.dispose();
      resolve();
    });
  });
}

/** What the chat view says when a prompt waits for the API key. */
export const HELD_FOR_KEY =
  "dsh needs your model provider's API key before it can answer. Your message is kept: it is sent as soon as the key is set.";

/** What the chat view says when, after a reload, the last conversation cannot reopen for want of the API key (it reopens once the key is set). */
export const REOPENS_WITH_KEY = "dsh needs your model provider's API key to reopen your last conversation. It reopens as soon as the key is set.";

/** What the chat view says when a conversation cannot start for want of the API key. */
export const NEEDS_KEY = "dsh needs your model provider's API key to start a conversation.";

/** How a sign-in ended: a key was set, the agent's sign-in ran in a terminal, or the user declined. */
export type SignInResult = "key" | "terminal" | "dismissed";

/** The buttons of the "needs an API key" message. */
export const SET_API_KEY = "Set API Key";
/** The button that runs the agent's own sign-in in a terminal. */
export const SIGN_IN_TERMINAL = "Sign in in a terminal";

/** What the sign-in flow drives. */
export interface SignInDeps {
  /** The agent's initialize answer. */
  readonly init: Pick<InitializeResponse, "authMethods">;
  /** The dsh-acp binary. */
  readonly binary: string;
  /** Runs "dsh: Set API Key". */
  readonly setApiKey: () => Promise<void>;
  /** Tells the agent the terminal sign-in finished. */
  readonly authenticate: (methodId: string) => Promise<void>;
}

/**
 * How the sign-in is offered: "notify" when the agent refused and the chat
 * is out of sight (a notification tells the user the key is needed);
 * "choose" when the user asked for it (the chat's Set API key): nothing
 * to tell, only which way, asked in a QuickPick that closes when answered.
 */
export type SignInWay = "notify" | "choose";

/** The QuickPick's question when the agent offers a terminal sign-in too. */
const CHOOSE_WAY = "How should dsh get your model provider's API key?";

/**
 * Offers to set the API key (kept in SecretStorage) or, when the agent
 * offers it, to sign in in a terminal, as way says: "notify" tells that
 * the model needs a key in an error notification with both as buttons;
 * "choose" runs Set API Key at once, or asks which in a QuickPick when a
 * terminal sign-in is offered too. No notification is left behind once
 * the key is set from the chat (VS Code gives code no way to close one).
 * Returns what was done.
 */
export async function offerSignIn(deps: SignInDeps, way: SignInWay = "notify"): Promise<SignInResult> {
  const method = terminalAuthMethod(deps.init);
  const buttons = method ? [SET_API_KEY, SIGN_IN_TERMINAL] : [SET_API_KEY];
  const picked =
    way === "notify"
      ? await vscode.window.showErrorMessage("dsh needs your model provider's API key. It is kept in VS Code's secret storage.", ...buttons)
      : method
        ? await vscode.window.showQuickPick(buttons, { placeHolder: CHOOSE_WAY })
        : SET_API_KEY;
  if (picked === SET_API_KEY) {
    await deps.setApiKey();
    return "key";
  }
  if (picked === SIGN_IN_TERMINAL && method) {
    await runSignInTerminal(deps.binary, method);
    await deps.authenticate(method.id);
    return "terminal";
  }
  return "dismissed";
}
