import type { AgentNotification } from "./unstable";

/**
 * When a prompt's first answer chunk (agent_message_chunk) passed the
 * extension host's hops, as Date.now() values: for the latency probe of
 * the end-to-end test (docs/benchmarks.md), which lines them up with the
 * time the agent wrote the chunk and the time the chat view showed it.
 */
export interface ChunkMark {
  /** The session the prompt was sent to. */
  readonly sessionId: string;
  /** The client's notification handler got the frame. */
  readonly arrivedAt: number;
  /** The session's queue reached it: the handlers were called (the chat view is posted an update first). */
  readonly appliedAt: number;
  /** The handlers had settled. */
  readonly settledAt: number;
}

/** The hops of one chunk still to mark. */
export interface ChunkTrack {
  /** The handlers are being called now. */
  applied(): void;
  /** The handlers have settled; hands the mark over. */
  settled(): void;
}

/**
 * Marks the first agent_message_chunk of a session after each arm(),
 * handing each mark to report once its handlers settled. Only the
 * session armed counts (a subagent's chunks are its own session's).
 */
export class FirstChunkMarks {
  private readonly armed = new Set<string>();
  private readonly report: (mark: ChunkMark) => void;
  private readonly now: () => number;

  constructor(report: (mark: ChunkMark) => void, now: () => number = Date.now) {
    this.report = report;
    this.now = now;
  }

  /** A prompt is about to be sent to sessionId: its next answer chunk is marked. */
  arm(sessionId: string): void {
    this.armed.add(sessionId);
  }

  /** The prompt to sessionId has ended: a chunk after it is not its answer. */
  disarm(sessionId: string): void {
    this.armed.delete(sessionId);
  }

  /** A session/update arrived: the track of its hops when it is the first answer chunk since arm(), else undefined. */
  arrived(n: AgentNotification): ChunkTrack | undefined {
    if (n.update.sessionUpdate !== "agent_message_chunk" || !this.armed.delete(n.sessionId)) return undefined;
    const { sessionId } = n;
    const arrivedAt = this.now();
    let appliedAt = arrivedAt;
    return {
      applied: () => {
        appliedAt = this.now();
      },
      settled: () => this.report({ sessionId, arrivedAt, appliedAt, settledAt: this.now() }),
    };
  }
}
