import type { ContentBlock } from "@agentclientprotocol/sdk";
import { HELD_FOR_KEY, isAuthRequired, NEEDS_KEY } from "../auth/signIn";
import type { PromptImage, ToWebview } from "../chat/messages";
import { errorMessage } from "../errors";
import type { ReviewList } from "../review/reviewList";
import { moneyText, requestCost } from "../status/usage";
import type { AgentPort } from "./agentPort";
import type { ResultsLog } from "./resultsLog";
import { contextBlocks, contextLabel, type EditorContext } from "./editorContext";
import { imageBlocks, imagesLabel, NO_IMAGES } from "./images";
import { modelTakesNoImages } from "./modelImages";
import { isSlashCommand } from "./restore";
import type { Sessions } from "./sessions";

/** What Turns drives. */
export interface TurnsDeps {
  readonly agent: () => Promise<AgentPort>;
  readonly post: (m: ToWebview) => void;
  readonly results: ResultsLog;
  readonly sessions: Sessions;
  readonly review: ReviewList;
  /** Starts the turn's review (the changes still under review stay listed). */
  readonly startReview: () => void;
  /** Cancels every open approval (the turn was stopped). */
  readonly cancelApprovals: () => void;
  /** The session's cost so far, if known (the request's cost is shown on its turn). */
  readonly cost?: () => { readonly amount: number; readonly currency: string } | undefined;
  /** How many priced requests the session has made so far (UsageStatus.priced): a turn that made none shows no cost line. */
  readonly priced?: () => number;
  /** Called with what a request cost (the status bar's tooltip counts them). */
  readonly spent?: (cost: { readonly amount: number; readonly currency: string }) => void;
  /** The turn is over: what it left running (a cancelled command's terminal) is ended. */
  readonly ended: () => void;
  /** The directory sessions run in (context paths are shown relative to it). */
  readonly cwd: () => string;
  /** Resolves when the agent may take a prompt (not while it restarts and its session is picked up again). */
  readonly ready: () => Promise<void>;
  /** Called when the agent refused for want of an API key (after the view was told). */
  readonly authRequired?: () => Promise<void>;
  /** The session's model, when the agent says it takes no images (see modelRefusingImages). */
  readonly modelRefusingImages?: () => string | undefined;
}


/** How a prompt is sent. */
export interface PromptOptions {
  /**
   * The extension's own prompt, not the user's (a restore's /rewind or
   * /undo): the view shows no bubble of words the user never typed and no
   * cost line for the turn (its cost still counts in the status bar); the
   * agent's reply shows as any other.
   */
  readonly quiet?: boolean;
}

/**
 * The chat's turns: one prompt at a time, sent in the current session
 * (started first when there is none), and stopped on request. A turn's
 * end, or its error, is shown in the view and recorded.
 */
export class Turns {
  private readonly deps: TurnsDeps;
  private running = false;
  // The prompt refused for want of an API key, sent once the key is set.
  private held: string | undefined;

  constructor(deps: TurnsDeps) {
    this.deps = deps;
  }

  /** Whether a prompt is running. */
  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Sends a prompt (prefixed by the note about rejected files, if any,
   * followed by its contexts and, when the agent takes images, its
   * images) and waits for the turn to end; returns its stop reason, or undefined when
   * nothing was sent (a turn is running, the text is blank) or it failed.
   * A prompt the agent refused for want of an API key is kept (shown, with
   * the sign-in action) until sendHeld. options.quiet: see PromptOptions.
   */
  async prompt(text: string, contexts: readonly EditorContext[] = [], images: readonly PromptImage[] = [], options: PromptOptions = {}): Promise<string | undefined> {
    if (this.running || text.trim() === "") return undefined;
    this.running = true;
    try {
      await this.deps.ready();
      if (!this.deps.sessions.current) await this.deps.sessions.newSession();
      const sessionId = this.deps.sessions.current;
      if (!sessionId) return undefined;
      this.deps.startReview();
      const blocks: ContentBlock[] = [];
      // A slash command must start the prompt: the note waits for the next prompt that is not one.
      const note = isSlashCommand(text) ? undefined : this.deps.review.takeRejectionNote(sessionId);
      // The user's words first (what dsh-acp quotes of a turn, in /rewind say), then the note on their own lines.
      blocks.push({ type: "text", text });
      if (note) blocks.push({ type: "text", text: `\n\n${note}` });
      for (const c of contexts) blocks.push(...contextBlocks(c));
      const agent = await this.deps.agent();
      // Images go only to an agent, and a model, that take them; otherwise the user is told they stayed behind.
      const refusing = images.length > 0 ? this.deps.modelRefusingImages?.() : undefined;
      const sendImages = images.length > 0 && refusing === undefined && (await agent.capabilities()).promptCapabilities?.image === true;
      if (sendImages) blocks.push(...imageBlocks(images));
      const labels = [...contexts.map((c) => contextLabel(c, this.deps.cwd())), ...(sendImages ? [imagesLabel(images.length) ?? ""] : [])];
      if (options.quiet !== true) this.deps.post({ type: "userPrompt", text, context: labels.length ? labels.join(", ") : undefined });
      if (images.length > 0 && !sendImages) this.deps.post({ type: "notice", level: "info", text: refusing === undefined ? NO_IMAGES : modelTakesNoImages(refusing) });
      this.deps.post({ type: "turn", running: true });
      this.deps.sessions.notePrompted();
      const before = this.deps.cost?.();
      const pricedBefore = this.deps.priced?.();
      const res = await agent.prompt(sessionId, blocks);
      // A turn that made no priced request (a slash command) spent nothing: it has no line, as a replay shows it (ReplayCosts).
      const unpriced = pricedBefore !== undefined && pricedBefore === this.deps.priced?.();
      const spent = unpriced ? undefined : requestCost(before, this.deps.cost?.());
      if (spent) {
        if (options.quiet !== true) this.deps.post({ type: "turnCost", text: moneyText(spent) });
        this.deps.spent?.(spent);
      }
      this.deps.post({ type: "turn", running: false, stopReason: res.stopReason });
      // The agent has stored the session and titled it from the prompt: the list shows it so.
      void this.deps.sessions.refresh();
      await this.deps.results.record("turn", { stopReason: res.stopReason, changed: this.deps.review.files().map((f) => f.path) });
      return res.stopReason;
    } catch (e) {
      if (isAuthRequired(e)) {
        // The user's prompt is kept for the key; the extension's own is not (nothing of it was shown).
        if (options.quiet !== true) {
          this.held = text;
          this.deps.post({ type: "userPrompt", text });
        }
        this.deps.post({ type: "notice", level: "error", text: options.quiet === true ? NEEDS_KEY : HELD_FOR_KEY, action: "signIn" });
        void this.deps.authRequired?.();
        return undefined;
      }
      const msg = errorMessage(e);
      this.deps.post({ type: "turn", running: false, stopReason: "error" });
      this.deps.post({ type: "notice", level: "error", text: msg });
      await this.deps.results.record("error", { message: msg });
      return undefined;
    } finally {
      this.running = false;
      this.deps.ended();
    }
  }

  /** Whether a prompt waits for the API key. */
  get isHeld(): boolean {
    return this.held !== undefined;
  }

  /** Sends the prompt kept for want of an API key, if any (the key was set). */
  async sendHeld(): Promise<void> {
    const text = this.held;
    if (text === undefined || this.running) return;
    this.held = undefined;
    await this.prompt(text);
  }

  /** Cancels the running turn (session/cancel) and any open approval. */
  async stop(): Promise<void> {
    this.deps.cancelApprovals();
    const sessionId = this.deps.sessions.current;
    if (sessionId && this.running) await (await this.deps.agent()).cancel(sessionId);
  }
}
