import * as vscode from "vscode";
import type { ToWebview } from "../../src/chat/messages";
import { AgentClient } from "../../src/client/agentClient";
import { DiffContentProvider } from "../../src/diff/provider";
import type { Field } from "../../src/elicitation/form";
import type { FieldPrompter, StepResult } from "../../src/elicitation/walk";
import { Follower } from "../../src/follow";
import { PlanDocuments, PLAN_SCHEME } from "../../src/plan/planDocuments";
import { ReviewList } from "../../src/review/reviewList";
import { ChatController } from "../../src/session/controller";
import { restoreFile } from "../../src/session/files";
import { ResultsLog } from "../../src/session/resultsLog";
import { UsageStatus } from "../../src/status/usage";
import { CommandTerminals } from "../../src/terminal/terminals";

/** A chat on a real agent process: the controller, and the client once started (dispose it after). */
export interface ProcessChat {
  readonly controller: ChatController;
  readonly client: () => AgentClient | undefined;
}

/**
 * A ChatController on an AgentClient running binary (with args) in cwd,
 * posting to post, its plans served under the dsh-plan scheme, its
 * elicitations asked through prompter (VS Code's QuickInputs when absent).
 */
export function processChat(opts: { binary: string; args?: readonly string[]; cwd: string; env: NodeJS.ProcessEnv; post: (m: ToWebview) => void; prompter?: FieldPrompter | undefined }): ProcessChat {
  const plans = new PlanDocuments();
  vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, plans);
  let client: AgentClient | undefined;
  const controller: ChatController = new ChatController({
    agent: async () => {
      client ??= new AgentClient({ binary: opts.binary, args: opts.args ?? [], cwd: opts.cwd, env: () => opts.env, version: "test", handlers: controller });
      await client.start();
      return client;
    },
    post: opts.post,
    diffs: new DiffContentProvider(),
    plans,
    review: new ReviewList(restoreFile),
    terminals: new CommandTerminals(),
    follower: new Follower(() => false),
    usage: new UsageStatus(),
    results: new ResultsLog(undefined),
    cwd: () => opts.cwd,
    ...(opts.prompter ? { prompter: opts.prompter } : {}),
  });
  return { controller, client: () => client };
}

/** A prompter that answers each field with what answer says for it (cancel when it says nothing); records the titles asked. */
export class AnsweringPrompter implements FieldPrompter {
  readonly asked: string[] = [];
  private readonly answer: (field: Field) => StepResult | undefined;
  constructor(answer: (field: Field) => StepResult | undefined) {
    this.answer = answer;
  }
  async ask(field: Field): Promise<StepResult> {
    this.asked.push(field.title);
    return this.answer(field) ?? { kind: "cancel" };
  }
  async confirm(): Promise<StepResult> {
    return { kind: "cancel" };
  }
}
