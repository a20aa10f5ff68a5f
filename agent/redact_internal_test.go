package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/secrets"
)

// TestRedactingProviderHidesSecretsInEveryPart: the system prompt (the
// project instructions), a user message's text and parts, reasoning, tool
// results and tool-call arguments all reach the model redacted, and the
// request the agent built is left as it was.
func TestRedactingProviderHidesSecretsInEveryPart(t *testing.T) {
	const key = "sk-held-0123456789abcdef"
	inner := llm.NewScripted()
	p := redactingProvider{inner: inner, red: secrets.NewRedactor(key)}
	req := llm.Request{
		System: "## AGENTS.md\n\nthe key is " + key,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Content: "use " + key, Parts: []llm.Part{llm.TextPart("part " + key), llm.ImagePart("image/png", "AAAA")}},
			{Role: llm.RoleAssistant, Reasoning: "thinking of " + key, ToolCalls: []llm.ToolCall{
				{ID: "c1", Name: "bash", Arguments: `{"command":"echo ` + key + `"}`},
				{ID: "c2", Name: "bash", Arguments: `not json ` + key},
			}},
			llm.ToolResultMessage("c1", key+"\n"),
		},
	}
	stream, err := p.Stream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := llm.Collect(stream, nil); err != nil {
		t.Fatal(err)
	}
	sent := inner.Requests()[0]
	texts := []string{sent.System}
	for _, m := range sent.Messages {
		texts = append(texts, m.Content, m.Reasoning)
		for _, part := range m.Parts {
			texts = append(texts, part.Text)
		}
		for _, c := range m.ToolCalls {
			texts = append(texts, c.Arguments)
		}
	}
	all := strings.Join(texts, "\n")
	if strings.Contains(all, key) || strings.Count(all, secrets.Marker) != 7 {
		t.Errorf("the model was sent:\n%s", all)
	}
	if sent.Messages[1].ToolCalls[0].Arguments != `{"command":"echo [REDACTED]"}` {
		t.Errorf("JSON arguments = %s", sent.Messages[1].ToolCalls[0].Arguments)
	}
	if !strings.Contains(req.System, key) || !strings.Contains(req.Messages[0].Parts[0].Text, key) ||
		!strings.Contains(req.Messages[1].ToolCalls[0].Arguments, key) {
		t.Error("the agent's own request was changed")
	}
}
