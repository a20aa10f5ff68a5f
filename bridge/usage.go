package bridge

import (
	"fmt"
	"strconv"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/session"
)

// costTotal adds up what a session's model requests cost. A session whose
// model changes to one priced in another currency starts a new total in
// that currency: amounts in two currencies are never added.
type costTotal struct {
	amount   float64
	currency string
}

// add counts one request's cost and returns the total so far, or nil when
// nothing priced has been counted.
func (t *costTotal) add(amount float64, currency string) *acp.Cost {
	if currency != "" {
		if currency != t.currency {
			t.amount, t.currency = 0, currency
		}
		t.amount += amount
	}
	if t.currency == "" {
		return nil
	}
	return &acp.Cost{Amount: t.amount, Currency: t.currency}
}

// usage shows how full the context window is after a model request, with
// the session's cost so far. The window is the answering model's, or the
// bridge's default when the event does not know it; without either, only
// the cost is counted and nothing is shown.
func (m *Mapper) usage(p session.Usage) []acp.Update {
	cost := m.cost.add(p.Cost, p.Currency)
	size := p.ContextWindow
	if size <= 0 {
		size = m.opts.ContextWindow
	}
	if size <= 0 {
		return nil
	}
	u := acp.UsageUpdate{Used: p.PromptTokens + p.CompletionTokens, Size: size, Cost: cost}
	m.lastUsage = &u
	return []acp.Update{u}
}

// compaction shows a compaction of the conversation as a finished card
// holding the summary the model will see from now on.
// compactionID is the id a compaction is shown with: the Seq of the event
// that started it.
func compactionID(started int64) string {
	return "compaction-" + strconv.FormatInt(started, 10)
}

// compactionStarted shows a compaction starting, to a client that shows
// compactions.
func (m *Mapper) compactionStarted(seq int64) []acp.Update {
	if !m.opts.Compaction {
		return nil
	}
	return []acp.Update{acp.CompactionUpdate{CompactionID: compactionID(seq), Status: acp.CompactionInProgress}}
}

// compactionFailed shows a compaction that wrote no summary, to a client
// that shows compactions (the turn's own end tells the others).
func (m *Mapper) compactionFailed(p session.CompactionFailed) []acp.Update {
	if !m.opts.Compaction {
		return nil
	}
	u := acp.CompactionUpdate{CompactionID: compactionID(p.Started), Status: acp.CompactionFailed, Error: p.Error}
	if p.Cancelled {
		u.Status, u.Error = acp.CompactionCancelled, ""
	}
	return []acp.Update{u}
}

// compacted shows a finished compaction: its summary and its end to a
// client that shows compactions, else a finished card.
func (m *Mapper) compacted(seq int64, p session.Compacted) []acp.Update {
	if !m.opts.Compaction {
		return compactionCard(seq, p)
	}
	started := p.Started
	if started == 0 { // logged before compactions were announced
		started = seq
	}
	id := compactionID(started)
	return []acp.Update{
		acp.CompactionSummaryChunk{CompactionID: id, Content: acp.Text(p.Summary)},
		acp.CompactionUpdate{CompactionID: id, Status: acp.CompactionCompleted},
	}
}

// compactionCard tells of a compaction as a finished card.
func compactionCard(seq int64, p session.Compacted) []acp.Update {
	title := "Summarized the earlier conversation"
	if p.Turns > 0 {
		title = fmt.Sprintf("Summarized %d earlier %s to fit the context window", p.Turns, plural(p.Turns, "turn", "turns"))
	}
	return finishedCard(acp.ToolCall{
		ToolCallID: "compaction-" + strconv.FormatInt(seq, 10),
		RawInput:   rawObject(map[string]any{"turns": p.Turns}),
		Title:      title,
		Kind:       acp.ToolKindThink,
		Content:    []acp.ToolCallContent{acp.ContentItem{Content: acp.Text(p.Summary)}},
	})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
