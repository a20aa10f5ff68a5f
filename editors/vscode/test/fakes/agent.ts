import type { AgentCapabilities, ContentBlock, SessionConfigOption, SessionInfo } from "@agentclientprotocol/sdk";
import type { ToWebview } from "../../src/chat/messages";
import { DiffContentProvider } from "../../src/diff/provider";
import { Follower } from "../../src/follow";
import { ReviewList } from "../../src/review/reviewList";
import type { AgentPort } from "../../src/session/agentPort";
import type { Chats } from "../../src/session/chats";
import { ChatController, type ControllerDeps } from "../../src/session/controller";
import { restoreFile } from "../../src/session/files";
import { ResultsLog } from "../../src/session/resultsLog";
import { UsageStatus } from "../../src/status/usage";
import { CommandTerminals } from "../../src/terminal/terminals";

/** An agent that records prompts and answers end_turn. */
export class FakeAgent implements AgentPort {
  readonly prompts: ContentBlock[][] = [];
  /** What session/load replays before it answers. */
  replay: (sessionId: string) => Promise<void> = async () => undefined;
  async newSession(): Promise<{ sessionId: string; configOptions?: SessionConfigOption[] | null }> {
    return { sessionId: "s1" };
  }
  async loadSession(sessionId: string): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    await this.replay(sessionId);
    return {};
  }
  async resumeSession(): Promise<{ configOptions?: SessionConfigOption[] | null }> {
    return {};
  }
  async listSessions(): Promise<{ sessions: SessionInfo[] }> {
    return { sessions: [] };
  }
  async prompt(_s: string, p: ContentBlock[]): Promise<{ stopReason: string }> {
    this.prompts.push(p);
    return { stopReason: "end_turn" };
  }
  /** The sessions session/cancel was sent for. */
  readonly cancelled: string[] = [];
  async cancel(sessionId: string): Promise<void> {
    this.cancelled.push(sessionId);
  }
  async setConfigOption(): Promise<SessionConfigOption[]> {
    return [];
  }
  /** What capabilities() answers. */
  caps: AgentCapabilities = { promptCapabilities: { image: true, embeddedContext: true }, sessionCapabilities: { list: {}, delete: {} } };
  async capabilities(): Promise<AgentCapabilities> {
    return this.caps;
  }
  readonly deleted: string[] = [];
  async deleteSession(sessionId: string): Promise<void> {
    this.deleted.push(sessionId);
  }
}

/** A controller on agent, its sessions in cwd, posting to posted; deps override the defaults (a fresh review, no following). */
export function chatController(agent: AgentPort, posted: ToWebview[], cwd: string, deps: Partial<ControllerDeps> = {}): ChatController {
  return new ChatController({
    agent: async () => agent,
    post: (m) => posted.push(m),
    diffs: new DiffContentProvider(),
    review: new ReviewList(restoreFile),
    terminals: new CommandTerminals(),
    follower: new Follower(() => false),
    usage: new UsageStatus(),
    results: new ResultsLog(undefined),
    cwd: () => cwd,
    ...deps,
  });
}

/** A controller on agent with review, posting to posted, its sessions in cwd. */
export function reviewing(agent: FakeAgent, review: ReviewList, posted: ToWebview[], cwd: string, reviewChanged?: () => void): ChatController {
  return chatController(agent, posted, cwd, { review, reviewChanged });
}

/** A chat on agent added to chats, with its own review and usage, its sessions in cwd. */
export function chatIn(agent: AgentPort, chats: Chats, cwd: string): { c: ChatController; posted: ToWebview[]; review: ReviewList; usage: UsageStatus } {
  const posted: ToWebview[] = [];
  const review = new ReviewList(restoreFile);
  const usage = new UsageStatus();
  const c = chatController(agent, posted, cwd, { review, usage });
  chats.add(c, usage);
  return { c, posted, review, usage };
}
