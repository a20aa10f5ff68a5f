package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// TestSessionUpdateWire pins the exact params of session/update frames of
// every Update variant: field order as declared, the discriminators,
// _meta kept on content blocks and typed for Zed's terminal convention,
// rawInput verbatim (integers above 2^53 intact), no content on a
// tool_call_update that leaves it unchanged and [] on one that clears it.
// The client also validates each frame against SessionNotification.
func TestSessionUpdateWire(t *testing.T) {
	zero := 0
	tests := []struct {
		name   string
		update acp.Update
		want   string
	}{
		{
			name: "agent_message_chunk",
			update: acp.AgentMessageChunk{Content: acp.TextContent{
				Meta: map[string]any{"k": "v"}, Annotations: &acp.Annotations{Audience: []acp.Role{acp.RoleUser}}, Text: "a <b> & c",
			}},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a <b> & c","annotations":{"audience":["user"]},"_meta":{"k":"v"}}}}`,
		},
		{
			name:   "agent_thought_chunk",
			update: acp.AgentThoughtChunk{Content: acp.Text("hmm")},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"agent_thought_chunk","content":{"type":"text","text":"hmm"}}}`,
		},
		{
			name:   "user_message_chunk with an image",
			update: acp.UserMessageChunk{Content: acp.ImageContent{Data: "iVBORw0KGgo=", MimeType: "image/png"}, MessageID: "m1"},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"user_message_chunk","content":{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},"messageId":"m1"}}`,
		},
		{
			name: "tool_call with terminal_info and a lossless rawInput",
			update: acp.ToolCall{
				ToolCallID: "call-1", Title: "make test", Kind: acp.ToolKindExecute, Status: acp.ToolCallStatusPending,
				RawInput: json.RawMessage(`{"command":"make test","timeout":9007199254740993}`),
				Content:  []acp.ToolCallContent{acp.Terminal{TerminalID: "call-1"}},
				Meta:     &acp.ToolCallMeta{TerminalInfo: &acp.TerminalInfo{TerminalID: "call-1", Cwd: "/w"}},
			},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call-1","title":"make test","kind":"execute","status":"pending","rawInput":{"command":"make test","timeout":9007199254740993},"content":[{"type":"terminal","terminalId":"call-1"}],"_meta":{"terminal_info":{"terminal_id":"call-1","cwd":"/w"}}}}`,
		},
		{
			name: "tool_call_update with terminal_output and no content",
			update: acp.ToolCallUpdate{ToolCallID: "call-1",
				Meta: &acp.ToolCallUpdateMeta{TerminalOutput: &acp.TerminalOutput{TerminalID: "call-1", Data: "ok\n"}}},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call-1","_meta":{"terminal_output":{"terminal_id":"call-1","data":"ok\n"}}}}`,
		},
		{
			name: "tool_call_update with terminal_exit and cleared content",
			update: acp.ToolCallUpdate{ToolCallID: "call-1", Status: acp.ToolCallStatusCompleted, Content: []acp.ToolCallContent{},
				Meta: &acp.ToolCallUpdateMeta{TerminalExit: &acp.TerminalExit{TerminalID: "call-1", ExitCode: &zero}}},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call-1","status":"completed","content":[],"_meta":{"terminal_exit":{"terminal_id":"call-1","exit_code":0}}}}`,
		},
		{
			name: "tool_call with a diff, text content and a location",
			update: acp.ToolCall{
				ToolCallID: "call-2", Title: "Edit a.go", Kind: acp.ToolKindEdit,
				Content: []acp.ToolCallContent{
					acp.Diff{Path: "/w/a.go", OldText: ptr("a\n"), NewText: "b\n"},
					acp.Diff{Path: "/w/new.go", NewText: "c\n"},
					acp.ContentItem{Content: acp.Text("done")},
				},
				Locations: []acp.ToolCallLocation{{Path: "/w/a.go", Line: &zero}},
			},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"call-2","title":"Edit a.go","kind":"edit","locations":[{"path":"/w/a.go","line":0}],"content":[{"type":"diff","path":"/w/a.go","oldText":"a\n","newText":"b\n"},{"type":"diff","path":"/w/new.go","oldText":null,"newText":"c\n"},{"type":"content","content":{"type":"text","text":"done"}}]}}`,
		},
		{
			name: "plan",
			update: acp.Plan{Entries: []acp.PlanEntry{
				{Content: "write tests", Priority: "high", Status: "in_progress"},
			}},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[{"content":"write tests","priority":"high","status":"in_progress"}]}}`,
		},
		{
			name:   "empty plan",
			update: acp.Plan{},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"plan","entries":[]}}`,
		},
		{
			name:   "usage_update",
			update: acp.UsageUpdate{Used: 1200, Size: 128000, Cost: &acp.Cost{Amount: 0.25, Currency: "USD"}},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"usage_update","used":1200,"size":128000,"cost":{"amount":0.25,"currency":"USD"}}}`,
		},
		{
			name: "available_commands_update",
			update: acp.AvailableCommandsUpdate{AvailableCommands: []acp.AvailableCommand{
				{Name: "init", Description: "Write AGENTS.md"},
				{Name: "review", Description: "Review changes", Input: &acp.UnstructuredCommandInput{Hint: "what to review"}},
			}},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"available_commands_update","availableCommands":[{"name":"init","description":"Write AGENTS.md"},{"name":"review","description":"Review changes","input":{"hint":"what to review"}}]}}`,
		},
		{
			name:   "current_mode_update",
			update: acp.CurrentModeUpdate{CurrentModeID: "plan"},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"current_mode_update","currentModeId":"plan"}}`,
		},
		{
			name: "config_option_update",
			update: acp.ConfigOptionUpdate{ConfigOptions: []acp.SessionConfigOption{
				acp.SelectConfigOption{ID: "model", Name: "Model", Category: "model", CurrentValue: "fast",
					Options: []acp.ConfigSelectOption{{Value: "fast", Name: "Fast"}, {Value: "deep", Name: "Deep"}}},
				acp.BooleanConfigOption{ID: "think", Name: "Thinking", CurrentValue: true},
			}},
			want: `{"sessionId":"s1","update":{"sessionUpdate":"config_option_update","configOptions":[{"type":"select","id":"model","name":"Model","category":"model","currentValue":"fast","options":[{"value":"fast","name":"Fast"},{"value":"deep","name":"Deep"}]},{"type":"boolean","id":"think","name":"Thinking","currentValue":true}]}}`,
		},
		{
			name:   "session_info_update",
			update: acp.SessionInfoUpdate{Title: "Fix the parser", UpdatedAt: "2026-11-30T18:00:00Z"},
			want:   `{"sessionId":"s1","update":{"sessionUpdate":"session_info_update","title":"Fix the parser","updatedAt":"2026-11-30T18:00:00Z"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
				err := conn.SessionUpdate(ctx, string(req.SessionId), tt.update)
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

func ptr[T any](v T) *T { return &v }

// TestMissingVariantIsAnError: a nil union value is never encoded as null
// or as some fallback; nothing is sent.
func TestMissingVariantIsAnError(t *testing.T) {
	tests := []struct {
		name string
		n    acp.SessionNotification
	}{
		{"no update", acp.SessionNotification{SessionID: "s1"}},
		{"a chunk without content", acp.SessionNotification{SessionID: "s1", Update: acp.AgentMessageChunk{}}},
		{"a nil card item", acp.SessionNotification{SessionID: "s1", Update: acp.ToolCall{ToolCallID: "c", Content: []acp.ToolCallContent{nil}}}},
		{"a content item without content", acp.SessionNotification{SessionID: "s1", Update: acp.ToolCallUpdate{ToolCallID: "c", Content: []acp.ToolCallContent{acp.ContentItem{}}}}},
		{"an embedded resource without contents", acp.SessionNotification{SessionID: "s1", Update: acp.UserMessageChunk{Content: acp.EmbeddedResource{}}}},
		{"a nil config option", acp.SessionNotification{SessionID: "s1", Update: acp.ConfigOptionUpdate{ConfigOptions: []acp.SessionConfigOption{nil}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := tt.n.MarshalJSON()
			if !errors.Is(err, acp.ErrMissingVariant) {
				t.Errorf("MarshalJSON = %s, %v; want an error wrapping ErrMissingVariant", data, err)
			}
		})
	}
}
