package agent

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// history rebuilds the model's conversation from the log: user prompts,
// assistant messages with their tool calls, each call's result, and the
// contexts handed over after a batch.
func history(events []session.Event) []llm.Message {
	var msgs []llm.Message
	for _, ev := range events {
		switch p := ev.Payload.(type) {
		case session.UserMessage:
			msgs = append(msgs, llm.UserMessage(presentation.JoinText(p.Content)))
		case session.AssistantMessage:
			m := llm.Message{Role: llm.RoleAssistant, Content: p.Text, Reasoning: p.Reasoning}
			for _, c := range p.ToolCalls {
				m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
			}
			msgs = append(msgs, m)
		case session.ToolResult:
			msgs = append(msgs, llm.ToolResultMessage(p.CallID, presentation.JoinText(p.Content)))
		case session.ContextMessage:
			msgs = append(msgs, llm.UserMessage(presentation.JoinText(p.Message.Content)))
		}
	}
	return msgs
}

// toolCalls turns the model's calls into the log's, giving an id to any
// call that came without one.
func toolCalls(calls []llm.ToolCall, turn, request int) []session.ToolCallRef {
	out := make([]session.ToolCallRef, len(calls))
	for i, c := range calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_t%d_r%d_%d", turn, request, i)
		}
		out[i] = session.ToolCallRef{ID: id, Name: c.Name, Arguments: c.Arguments}
	}
	return out
}
