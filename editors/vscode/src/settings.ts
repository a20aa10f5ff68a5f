import * as vscode from "vscode";

/** The extension's settings (the dsh.* section). */
export interface Settings {
  /** dsh.path: the dsh-acp binary; empty to search PATH and GOPATH. */
  readonly path: string;
  /** dsh.model: the model name passed as DSH_MODEL; empty for dsh-acp's default. */
  readonly model: string;
  /** dsh.follow: whether the editor follows the files the agent reads and edits. */
  readonly follow: boolean;
  /** dsh.permissionPreset: passed as --permission; empty for dsh-acp's default. */
  readonly permissionPreset: string;
}

/** Reads the dsh.* settings now. */
export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration("dsh");
  return {
    path: c.get<string>("path", ""),
    model: c.get<string>("model", ""),
    follow: c.get<boolean>("follow", true),
    permissionPreset: c.get<string>("permissionPreset", ""),
  };
}

/** The command-line arguments dsh-acp is started with for these settings. */
export function agentArgs(s: Settings): string[] {
  return s.permissionPreset ? ["--permission", s.permissionPreset] : [];
}

/**
 * The environment dsh-acp is started with: the extension host's, plus the
 * model and the API key from SecretStorage (never from settings.json).
 */
export function agentEnv(s: Settings, apiKey: string | undefined, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (s.model) env["DSH_MODEL"] = s.model;
  if (apiKey) env["DSH_API_KEY"] = apiKey;
  return env;
}
