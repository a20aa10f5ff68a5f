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
	return []acp.Update{acp.UsageUpdate{Used: p.PromptTokens + p.CompletionTokens, Size: size, Cost: cost}}
}

// compaction shows a compaction of the conversation as a finished card
// holding the summary the model will see from now on.
func compaction(seq int64, p session.Compacted) []acp.Update {
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
