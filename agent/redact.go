package agent

import (
	"context"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/secrets"
)

// redactingProvider hides secrets in every request before it reaches the
// model: the system prompt (project instructions included), every
// message's text, reasoning and parts, and tool calls' arguments. It sits
// in front of the Provider, so no request (a model step, a compaction
// summary) can bypass it. The session log keeps what happened; only what
// leaves the process is redacted.
type redactingProvider struct {
	inner llm.Provider
	red   *secrets.Redactor
}

// Stream implements llm.Provider.
func (p redactingProvider) Stream(ctx context.Context, req llm.Request) (*llm.Stream, error) {
	return p.inner.Stream(ctx, p.redact(req))
}

// redact returns req with every secret replaced by secrets.Marker; req
// and what it shares are not changed.
func (p redactingProvider) redact(req llm.Request) llm.Request {
	req.System = p.red.String(req.System)
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		m.Content = p.red.String(m.Content)
		m.Reasoning = p.red.String(m.Reasoning)
		if m.Parts != nil {
			parts := make([]llm.Part, len(m.Parts))
			for j, part := range m.Parts {
				part.Text = p.red.String(part.Text)
				parts[j] = part
			}
			m.Parts = parts
		}
		if m.ToolCalls != nil {
			calls := make([]llm.ToolCall, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				c.Arguments = p.arguments(c.Arguments)
				calls[j] = c
			}
			m.ToolCalls = calls
		}
		msgs[i] = m
	}
	req.Messages = msgs
	return req
}

// arguments redacts a tool call's argument text: as JSON when it is JSON
// (so it stays valid), as plain text otherwise.
func (p redactingProvider) arguments(args string) string {
	if out, err := p.red.JSON([]byte(args)); err == nil {
		return string(out)
	}
	return p.red.String(args)
}
