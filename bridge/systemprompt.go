package bridge

import (
	"strings"

	"github.com/dsh-acp/dsh-acp/acp"
)

// SystemPrompt is what a client asked the model to be told besides (or
// instead of) the agent's own instructions; the zero value is none.
type SystemPrompt struct {
	Text string
	// Override replaces the agent's default instructions; otherwise the
	// text is added to them.
	Override bool
}

// clientSystemPrompt checks a client's system prompt as the schema
// requires: a mode this agent supports and only text, not empty; nil is
// none.
func clientSystemPrompt(sp *acp.SystemPrompt) (SystemPrompt, error) {
	if sp == nil {
		return SystemPrompt{}, nil
	}
	var out SystemPrompt
	switch sp.Mode {
	case acp.SystemPromptAppend:
	case acp.SystemPromptOverride:
		out.Override = true
	default:
		return SystemPrompt{}, acp.InvalidParams("systemPrompt mode %q is not supported: use append or override", sp.Mode)
	}
	if len(sp.Content) == 0 {
		return SystemPrompt{}, acp.InvalidParams("systemPrompt has no content")
	}
	var b strings.Builder
	for i, block := range sp.Content {
		if block.Text == nil {
			return SystemPrompt{}, acp.InvalidParams("systemPrompt content %d is not text: only text blocks are supported", i)
		}
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(block.Text.Text)
	}
	out.Text = b.String()
	return out, nil
}

// storedSystemPrompt is the system prompt a stored session was given.
func storedSystemPrompt(text, mode string) SystemPrompt {
	return SystemPrompt{Text: text, Override: mode == acp.SystemPromptOverride}
}

// mode is the schema's name of how p combines with the agent's own
// instructions ("" for none).
func (p SystemPrompt) mode() string {
	switch {
	case p.Text == "":
		return ""
	case p.Override:
		return acp.SystemPromptOverride
	default:
		return acp.SystemPromptAppend
	}
}
