package acp_test

import (
	"context"
	"encoding/json"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// TestSessionUpdateWire pins the exact params of session/update frames:
// struct field order, _meta kept on updates and content blocks (Zed's
// terminal convention), lossless integers, no content on a
// tool_call_update that leaves it unchanged. The client also validates
// each frame against SessionNotification.
func TestSessionUpdateWire(t *testing.T) {
	big := json.Number("9007199254740993") // 2^53+1: lost through float64
	tests := []struct {
		name   string
		update acpsdk.SessionUpdate
		want   string
	}{
		{
			name: "agent_message_chunk",
			update: acpsdk.SessionUpdate{AgentMessageChunk: &acpsdk.SessionUpdateAgentMessageChunk{
				Content: acpsdk.ContentBlock{Text: &acpsdk.ContentBlockText{
					Meta: map[string]any{"k": "v"}, Annotations: &acpsdk.Annotations{Audience: []acpsdk.Role{"user"}}, Text: "a <b> & c",
				}},
			}},
			want: `{"sessionId":"s1","update":{"content":{"_meta":{"k":"v"},"annotations":{"audience":["user"]},"text":"a <b> & c","type":"text"},"sessionUpdate":"agent_message_chunk"}}`,
		},
		{
			name:   "agent_thought_chunk",
			update: acpsdk.SessionUpdate{AgentThoughtChunk: &acpsdk.SessionUpdateAgentThoughtChunk{Content: acpsdk.TextBlock("hmm")}},
			want:   `{"sessionId":"s1","update":{"content":{"text":"hmm","type":"text"},"sessionUpdate":"agent_thought_chunk"}}`,
		},
		{
			name: "tool_call with terminal_info",
			update: acpsdk.SessionUpdate{ToolCall: &acpsdk.SessionUpdateToolCall{
				Meta:       map[string]any{"terminal_info": map[string]any{"terminal_id": "call-1", "cwd": "/w"}},
				ToolCallId: "call-1", Title: "make test", Kind: acpsdk.ToolKindExecute, Status: acpsdk.ToolCallStatusPending,
				RawInput: map[string]any{"command": "make test", "timeout": big},
			}},
			want: `{"sessionId":"s1","update":{"_meta":{"terminal_info":{"cwd":"/w","terminal_id":"call-1"}},"kind":"execute","rawInput":{"command":"make test","timeout":9007199254740993},"sessionUpdate":"tool_call","status":"pending","title":"make test","toolCallId":"call-1"}}`,
		},
		{
			name: "tool_call_update with terminal_output and no content",
			update: acpsdk.SessionUpdate{ToolCallUpdate: &acpsdk.SessionToolCallUpdate{
				Meta:       map[string]any{"terminal_output": map[string]any{"terminal_id": "call-1", "data": "ok\n"}},
				ToolCallId: "call-1",
			}},
			want: `{"sessionId":"s1","update":{"_meta":{"terminal_output":{"data":"ok\n","terminal_id":"call-1"}},"sessionUpdate":"tool_call_update","toolCallId":"call-1"}}`,
		},
		{
			name: "tool_call_update with terminal_exit",
			update: acpsdk.SessionUpdate{ToolCallUpdate: &acpsdk.SessionToolCallUpdate{
				Meta:       map[string]any{"terminal_exit": map[string]any{"terminal_id": "call-1", "exit_code": 0, "signal": nil}},
				ToolCallId: "call-1", Status: acpsdk.Ptr(acpsdk.ToolCallStatusCompleted),
			}},
			want: `{"sessionId":"s1","update":{"_meta":{"terminal_exit":{"exit_code":0,"signal":null,"terminal_id":"call-1"}},"sessionUpdate":"tool_call_update","status":"completed","toolCallId":"call-1"}}`,
		},
		{
			name: "tool_call with a diff, text content and a location",
			update: acpsdk.SessionUpdate{ToolCall: &acpsdk.SessionUpdateToolCall{
				ToolCallId: "call-2", Title: "Edit a.go", Kind: acpsdk.ToolKindEdit,
				Content: []acpsdk.ToolCallContent{
					{Diff: &acpsdk.ToolCallContentDiff{Path: "/w/a.go", OldText: acpsdk.Ptr("a\n"), NewText: "b\n"}},
					{Content: &acpsdk.ToolCallContentContent{Content: acpsdk.TextBlock("done")}},
				},
				Locations: []acpsdk.ToolCallLocation{{Path: "/w/a.go", Line: acpsdk.Ptr(0)}},
			}},
			want: `{"sessionId":"s1","update":{"content":[{"newText":"b\n","oldText":"a\n","path":"/w/a.go","type":"diff"},{"content":{"text":"done","type":"text"},"type":"content"}],"kind":"edit","locations":[{"line":0,"path":"/w/a.go"}],"sessionUpdate":"tool_call","title":"Edit a.go","toolCallId":"call-2"}}`,
		},
		{
			name: "plan",
			update: acpsdk.SessionUpdate{Plan: &acpsdk.SessionUpdatePlan{Entries: []acpsdk.PlanEntry{
				{Content: "write tests", Priority: acpsdk.PlanEntryPriorityHigh, Status: acpsdk.PlanEntryStatusInProgress},
			}}},
			want: `{"sessionId":"s1","update":{"entries":[{"content":"write tests","priority":"high","status":"in_progress"}],"sessionUpdate":"plan"}}`,
		},
		{
			name:   "usage_update",
			update: acpsdk.SessionUpdate{UsageUpdate: &acpsdk.SessionUsageUpdate{Used: 1200, Size: 128000}},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"usage_update","size":128000,"used":1200}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
				err := conn.SessionUpdate(ctx, acpsdk.SessionNotification{SessionId: req.SessionId, Update: tt.update})
				return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, err
			}}
			c := newClient(t, agent)
			if err := c.Call(ctx, "session/prompt", textPrompt("s1", "go"), nil); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range c.Frames() {
				if f.Method == "session/update" {
					got = append(got, string(f.Params))
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("session/update params\n got %s\nwant %s", got, tt.want)
			}
			if n := len(c.Updates("s1")); n != 1 {
				t.Errorf("Updates(s1) has %d notifications, want 1", n)
			}
		})
	}
}
