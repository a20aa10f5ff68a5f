import { steeredChunk } from "../chat/steered";
import type { AgentUpdate } from "../client/unstable";
import { moneyText, requestCost } from "../status/usage";

/** An amount of money, as a usage_update's cost carries it. */
interface Money {
  readonly amount: number;
  readonly currency: string;
}

// The updates that show nothing in the conversation: between two chunks
// of the user's message they do not end it (nor does the chat view).
const UNSEEN: ReadonlySet<string> = new Set(["usage_update", "session_info_update", "available_commands_update", "config_option_update", "current_mode_update"]);

/**
 * The cost line of each turn of a replayed session, as live showed it
 * (Turns): what the session's cost rose by across the turn, from the
 * cumulative costs of the usage_update frames the agent replays among
 * the turns. A turn runs from the user's message to the next one (or
 * the replay's end), and its line goes at its end, before the next
 * message. A turn without a priced request (no usage_update with a
 * cost: a slash command, a restore's /undo) has no line, and neither
 * has one across which the currency changed.
 *
 * A turn a /rewind took back is not replayed, but what it cost is (the
 * money was spent): its usage comes after the turn before it, and counts
 * in that turn's line — in the first turn's when it was the first. Live,
 * the taken-back turn's own line went with it; the session's total in
 * the status bar is the same either way.
 *
 * A steered message (sent while the turn ran) shows where it landed,
 * within its turn: it starts none, and the turn's line covers it.
 */
export class ReplayCosts {
  // Whether a turn is shown, and whether the last update shown was its user's message.
  private open = false;
  private inUser = false;
  // The session's cost when the turn started (undefined before the first: nothing spent), and now.
  private start: Money | undefined;
  private total: Money | undefined;
  // Whether a priced request came since the turn started.
  private priced = false;

  /** Notes one replayed update of the session (not a child's); returns the cost line of the turn it ends ("$0.0123"), shown before it. */
  update(u: AgentUpdate): string | undefined {
    if (u.sessionUpdate === "usage_update") {
      if (u.cost) {
        this.total = { amount: u.cost.amount, currency: u.cost.currency };
        this.priced = true;
      }
      return undefined;
    }
    if (u.sessionUpdate !== "user_message_chunk" || (this.open && steeredChunk(u))) {
      if (!UNSEEN.has(u.sessionUpdate)) this.inUser = false;
      return undefined;
    }
    if (this.inUser) return undefined;
    this.inUser = true;
    if (!this.open) {
      // The first turn: a rewound first turn's cost, replayed before it, counts in its line.
      this.open = true;
      return undefined;
    }
    const line = this.line();
    this.start = this.total;
    this.priced = false;
    return line;
  }

  /** The replay is over: returns the last turn's line, and forgets the replay. */
  end(): string | undefined {
    const line = this.open ? this.line() : undefined;
    this.open = false;
    this.inUser = false;
    this.start = undefined;
    this.total = undefined;
    this.priced = false;
    return line;
  }

  private line(): string | undefined {
    const spent = this.priced ? requestCost(this.start, this.total) : undefined;
    return spent ? moneyText(spent) : undefined;
  }
}
