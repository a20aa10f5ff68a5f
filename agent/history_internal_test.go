package agent

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// A stored session whose process ended while tools ran has calls without
// results; the model servers refuse such a request, so history answers
// each as interrupted, right after the message that made it.
func TestHistoryAnswersInterruptedCalls(t *testing.T) {
	user := func(s string) session.Payload {
		return session.UserMessage{Content: []presentation.ContentBlock{presentation.Text(s)}}
	}
	calls := session.AssistantMessage{ToolCalls: []session.ToolCallRef{
		{ID: "a", Name: "read", Arguments: "{}"}, {ID: "b", Name: "bash", Arguments: "{}"},
	}}
	result := session.ToolResult{CallID: "a", Content: []presentation.ContentBlock{presentation.Text("file")}}
	tests := []struct {
		name     string
		payloads []session.Payload
		want     []string // role:toolCallID or role:content
	}{
		{"the log ends in the batch", []session.Payload{user("go"), calls, result},
			[]string{"user:go", "assistant:", "tool:a", "tool:b*"}},
		{"a later prompt follows the batch", []session.Payload{user("go"), calls, user("again")},
			[]string{"user:go", "assistant:", "tool:a*", "tool:b*", "user:again"}},
		{"every call answered", []session.Payload{user("go"), calls, result, session.ToolResult{CallID: "b"}},
			[]string{"user:go", "assistant:", "tool:a", "tool:b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events := make([]session.Event, len(tt.payloads))
			for i, p := range tt.payloads {
				events[i] = session.Event{Seq: int64(i + 1), Payload: p}
			}
			var got []string
			for _, m := range history(events) {
				switch m.Role {
				case llm.RoleTool:
					mark := ""
					if m.Content == interruptedCall {
						mark = "*"
					}
					got = append(got, "tool:"+m.ToolCallID+mark)
				default:
					got = append(got, string(m.Role)+":"+m.Content)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("history = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("history = %v, want %v", got, tt.want)
				}
			}
		})
	}
}
