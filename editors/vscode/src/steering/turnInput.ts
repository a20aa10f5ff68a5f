import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { PromptImage, ToWebview } from "../chat/messages";
import { errorMessage } from "../errors";
import type { AgentPort } from "../session/agentPort";
import { contextBlocks, type EditorContext } from "../session/editorContext";
import { PromptQueue } from "./promptQueue";

/** How a message typed during a turn should go: into the running turn, or after it. */
export type Delivery = "steer" | "queue";

/** What TurnInput drives. */
export interface TurnInputDeps {
  /** The chat's turns (Turns). */
  readonly turns: {
    readonly isRunning: boolean;
    prompt(text: string, contexts: readonly EditorContext[], images?: readonly PromptImage[]): Promise<string | undefined>;
  };
  readonly agent: () => Promise<AgentPort>;
  /** The current session, if any. */
  readonly session: () => string | undefined;
  readonly post: (m: ToWebview) => void;
}

/**
 * What the user sends, while a turn runs or not. With no turn running
 * (and nothing queued) it is a prompt. During a turn it steers: sent with
 * _session/steering, the agent reads it at its next step and shows it as
 * the user's message where it landed; the chat shows it as pending until
 * then. Sent to be queued (or when the agent does not steer, or as a
 * slash command, which the agent runs as a prompt of its own, or with
 * images, which go only with a prompt of their own), it waits
 * in the chat's queue and goes as a prompt once the turn ends, oldest
 * first; the user may take a queued one back, and Stop drops them all.
 * The queue is the client's, not the agent's, so that each prompt's turn
 * starts, and is reviewed, after the one before it ended.
 */
export class TurnInput {
  private readonly deps: TurnInputDeps;
  private readonly queue: PromptQueue;
  // The agent answered that it does not steer: from then on, messages queue.
  private noSteering = false;

  constructor(deps: TurnInputDeps) {
    this.deps = deps;
    this.queue = new PromptQueue((items) => deps.post({ type: "queue", items: items.map((p) => ({ id: p.id, text: p.text })) }));
  }

  /** Sends text (with contexts and images) as delivery asks; resolves with the stop reason when it ran as a prompt now. */
  async send(text: string, contexts: readonly EditorContext[], delivery: Delivery, images: readonly PromptImage[] = []): Promise<string | undefined> {
    if (text.trim() === "") return undefined;
    if (this.idle()) return this.deps.turns.prompt(text, contexts, images);
    // A slash command runs as a prompt of its own, and images go only with a prompt: they wait for the turn.
    const steerable = !text.trimStart().startsWith("/") && images.length === 0;
    if (delivery === "steer" && steerable && (await this.steer(text, contexts))) return undefined;
    // The turn may have ended while the agent was asked.
    if (this.idle()) return this.deps.turns.prompt(text, contexts, images);
    this.queue.add(text, contexts, images);
    return undefined;
  }

  /**
   * The running turn ended: the oldest queued prompt goes, at once (its
   * turn is running when this returns, so nothing sent after it goes
   * before it).
   */
  turnEnded(): void {
    if (this.deps.turns.isRunning) return;
    const next = this.queue.take();
    if (next) void this.deps.turns.prompt(next.text, next.contexts, next.images);
  }

  /** The user stopped the turn: the queued prompts are dropped. */
  stopped(): void {
    const dropped = this.queue.clear();
    if (dropped.length > 0) this.deps.post({ type: "notice", level: "info", text: `Stopped: ${dropped.length === 1 ? "the queued message was" : `${dropped.length} queued messages were`} not sent.` });
  }

  /** Takes the queued prompt id back, unsent. */
  unqueue(id: string): void {
    this.queue.remove(id);
  }

  private idle(): boolean {
    return !this.deps.turns.isRunning && this.queue.size === 0;
  }

  // Steers the running turn; reports whether the agent took the message.
  private async steer(text: string, contexts: readonly EditorContext[]): Promise<boolean> {
    const sessionId = this.deps.session();
    const agent = await this.deps.agent();
    if (this.noSteering || sessionId === undefined || !agent.steer) return false;
    const blocks: ContentBlock[] = [{ type: "text", text }, ...contexts.flatMap(contextBlocks)];
    this.deps.post({ type: "steer", text, state: "sending" });
    try {
      const outcome = await agent.steer(sessionId, blocks);
      if (outcome === "injected") return true;
      this.noSteering = outcome === "unsupported";
    } catch (e) {
      this.deps.post({ type: "notice", level: "error", text: `dsh did not take the message during the turn (${errorMessage(e)}); it is queued instead.` });
    }
    this.deps.post({ type: "steer", text, state: "dropped" });
    return false;
  }
}
