package agent

import (
	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// ModelInfo describes the model a request goes to: its name, its context
// window, its prices and whether it takes images.
type ModelInfo struct {
	// Name is the model's name, as usage reports show it.
	Name string
	// ContextWindow is the model's context size in tokens; 0 means unknown,
	// and then the conversation is never compacted.
	ContextWindow int64
	// Cost prices one request's usage, in the currency it returns (ISO
	// 4217); nil means the model has no price.
	Cost func(u llm.Usage) (amount float64, currency string)
	// Images says the model takes images in user messages: they are sent
	// to it as image parts. A model without it gets a note in the text
	// where each image was.
	Images bool
}

// model returns what Options.Model says about the model the next request
// goes to: the zero ModelInfo when there is no Model.
func (a *Agent) model() ModelInfo {
	if a.opts.Model == nil {
		return ModelInfo{}
	}
	return a.opts.Model()
}

// usage is the event recording u, a request to m used.
func (m ModelInfo) usage(u llm.Usage) session.Usage {
	ev := session.Usage{
		PromptTokens:       u.PromptTokens,
		CompletionTokens:   u.CompletionTokens,
		TotalTokens:        u.TotalTokens,
		CachedPromptTokens: u.CachedPromptTokens,
		Model:              m.Name,
		ContextWindow:      m.ContextWindow,
	}
	if m.Cost != nil {
		ev.Cost, ev.Currency = m.Cost(u)
	}
	return ev
}
