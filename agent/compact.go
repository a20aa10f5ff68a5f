package agent

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// DefaultCompactAt is the default Options.CompactAt: a request and its
// completion reserve may fill 80 % of the context window.
const DefaultCompactAt = 0.8

// Compaction sizes, as parts of the model's context window.
const (
	// reserveDivisor: without Options.MaxTokens, an eighth of the window is
	// kept for the completion.
	reserveDivisor = 8
	// keepDivisor: the recent completed turns kept verbatim fill at most a
	// quarter of the window (the most recent one is always kept).
	keepDivisor = 4
	// maxSummaryTokens caps the summary's length.
	maxSummaryTokens = 8192
)

// span is one completed turn of the conversation the model sees: its
// number and its events, in order.
type span struct {
	turn   int
	events []session.Event
}

// compaction is what one summary request replaces: the latest summary, if
// any, and the oldest completed turns after it.
type compaction struct {
	prev  session.Compacted
	turns []span
	// transcript is the text of turns as the summarizer reads it.
	transcript string
	// more says that turns the plan would summarize were left for want
	// of room in the summary request.
	more bool
}

// reserve is the number of tokens kept free for the completion of a
// request to m: Options.MaxTokens, or an eighth of the window, and never
// more than half of what CompactAt lets a request fill.
func (a *Agent) reserve(m ModelInfo) int64 {
	r := m.ContextWindow / reserveDivisor
	if a.opts.MaxTokens > 0 {
		r = int64(a.opts.MaxTokens)
	}
	return min(r, a.fill(m)/2)
}

// fill is the part of m's window a request and its completion may take.
func (a *Agent) fill(m ModelInfo) int64 {
	return int64(a.opts.CompactAt * float64(m.ContextWindow))
}

// promptLimit is the largest prompt, in estimated tokens, sent to m
// without compacting first.
func (a *Agent) promptLimit(m ModelInfo) int64 {
	return a.fill(m) - a.reserve(m)
}

// fit makes room for the next request to m, whose system prompt and tools
// are given: when the request would not fit, the oldest completed turns
// are summarized (see plan). Another round follows only while turns the
// plan would summarize were left for want of room in the summary request.
// When the request still does not fit, it is sent as it is, with a warning
// logged, for the server to answer.
func (t *turn) fit(ctx context.Context, m ModelInfo, system string, tools []llm.Tool) error {
	if m.ContextWindow <= 0 {
		return nil
	}
	limit := t.agent.promptLimit(m)
	fixed := textTokens(len(system)) + toolsTokens(tools)
	for more := true; ; {
		events := t.events()
		estimate := promptEstimate(events, system, tools)
		if estimate <= limit {
			return nil
		}
		var c compaction
		ok := more
		if ok {
			c, ok = t.agent.plan(events, t.log.Turn(), m, limit-fixed)
		}
		if !ok {
			t.agent.logger.Warn("the request may not fit the model's context window: nothing more can be compacted",
				slog.String("model", m.Name), slog.Int64("estimated_prompt_tokens", estimate),
				slog.Int64("limit", limit), slog.Int64("context_window", m.ContextWindow))
			return nil
		}
		if err := t.compact(ctx, m, c); err != nil {
			return fmt.Errorf("compacting the conversation: %w", err)
		}
		more = c.more
	}
}

// plan chooses what to summarize before a request to m in the turn
// numbered current, whose conversation may take room tokens: the latest
// summary and the oldest completed turns after it. It keeps verbatim the
// current turn and the most recent completed turns — at least one, and
// more while they fit in a quarter of the window and in what room leaves
// beside the current turn and the summary. Only whole turns are
// summarized, so every tool call stays next to its result. As many of the
// other turns are taken, oldest first, as the summary request has room
// for, at least one; more says some were left. ok is false when fewer
// than two completed turns follow the latest summary.
func (a *Agent) plan(events []session.Event, current int, m ModelInfo, room int64) (c compaction, ok bool) {
	c.prev, events, _ = latestCompaction(events)
	spans := completedTurns(events, current)
	if len(spans) < 2 {
		return c, false
	}
	from := len(events)
	for from > 0 && events[from-1].Turn == current {
		from--
	}
	now := conversationTokens(events[from:])
	budget := min(m.ContextWindow/keepDivisor, room-now-a.summaryTokens(m))
	keep, kept := 1, conversationTokens(spans[len(spans)-1].events)
	for keep < len(spans)-1 {
		next := conversationTokens(spans[len(spans)-1-keep].events)
		if kept+next > budget {
			break
		}
		keep, kept = keep+1, kept+next
	}
	input := a.fill(m) - a.summaryTokens(m) - requestTokens(summarySystem, nil, []llm.Message{llm.UserMessage(summaryInput(c.prev.Summary, ""))})
	var text []byte
	candidates := spans[:len(spans)-keep]
	for _, s := range candidates {
		turn := transcriptTurn(s)
		if textTokens(len(text))+textTokens(len(turn)) > input {
			if len(c.turns) > 0 {
				break
			}
			turn = cutMiddle(turn, int(max(input, minTranscriptTokens)*bytesPerToken), "of this turn")
		}
		text = append(text, turn...)
		c.turns = append(c.turns, s)
	}
	c.transcript = string(text)
	c.more = len(c.turns) < len(candidates)
	return c, true
}

// completedTurns splits events into the turns numbered below current,
// oldest first; events outside any turn are left out, and so are those
// of a turn a /rewind took back (a summary or a context logged after
// it: they carry its number, but no TurnStarted opens them).
func completedTurns(events []session.Event, current int) []span {
	var spans []span
	for i := 0; i < len(events); {
		n := events[i].Turn
		j := i + 1
		for j < len(events) && events[j].Turn == n {
			j++
		}
		if n > 0 && n < current && opensTurn(events[i:j]) {
			spans = append(spans, span{turn: n, events: events[i:j]})
		}
		i = j
	}
	return spans
}

// opensTurn reports whether events, those of one turn number, hold the
// start of that turn.
func opensTurn(events []session.Event) bool {
	return slices.ContainsFunc(events, func(ev session.Event) bool {
		_, ok := ev.Payload.(session.TurnStarted)
		return ok
	})
}

// compact asks m for the summary c describes and records it: the summary
// request's usage, then the Compacted event.
func (t *turn) compact(ctx context.Context, m ModelInfo, c compaction) error {
	started := t.log.Append(session.CompactionStarted{})
	summary, err := t.summarize(ctx, m, c)
	if err != nil {
		failed := session.CompactionFailed{Started: started.Seq, Cancelled: ctx.Err() != nil}
		if !failed.Cancelled {
			failed.Error = err.Error()
		}
		t.log.Append(failed)
		return err
	}
	last := c.turns[len(c.turns)-1].events
	done := session.Compacted{
		Summary: summary,
		Through: last[len(last)-1].Seq,
		Turns:   c.prev.Turns + len(c.turns),
		Started: started.Seq,
	}
	t.log.Append(done)
	t.agent.logger.Info("compacted the conversation",
		slog.Int("turns", len(c.turns)), slog.Int("turns_summarized", done.Turns), slog.Int64("through", done.Through))
	return nil
}
