package acp_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
)

// What an agent sends decodes back into the value that was sent: every
// Update variant, every content block, tool call content and config
// option.
func TestDecodeGivesBackWhatWasEncoded(t *testing.T) {
	meta := map[string]any{"k": "v"}
	updates := []acp.Update{
		acp.AgentMessageChunk{Content: acp.Text("hi")},
		acp.AgentThoughtChunk{Content: acp.TextContent{Text: "t", Annotations: &acp.Annotations{Audience: []acp.Role{acp.RoleUser}, Priority: ptr(0.5)}},
			MessageID: "m1", Meta: meta},
		acp.UserMessageChunk{Content: acp.ImageContent{Data: "AAAA", MimeType: "image/png", URI: "file:///i.png"}},
		acp.AgentMessageChunk{Content: acp.AudioContent{Data: "AAAA", MimeType: "audio/wav", Meta: meta}},
		acp.AgentMessageChunk{Content: acp.ResourceLink{Name: "a.go", URI: "file:///a.go", Title: "A", Size: ptr(int64(3))}},
		acp.AgentMessageChunk{Content: acp.EmbeddedResource{Resource: acp.TextResourceContents{URI: "file:///a.go", Text: "package a"}}},
		acp.AgentMessageChunk{Content: acp.EmbeddedResource{Resource: acp.BlobResourceContents{URI: "file:///b", Blob: "AAAA", MimeType: "x/y"}}},
		acp.ToolCall{
			ToolCallID: "c1", Title: "Edit a.go", Kind: acp.ToolKindEdit, Status: acp.ToolCallStatusPending, Name: "edit",
			RawInput:  json.RawMessage(`{"file_path":"a.go","n":12345678901234567890}`),
			Locations: []acp.ToolCallLocation{{Path: "/w/a.go", Line: ptr(3)}},
			Content: []acp.ToolCallContent{
				acp.ContentItem{Content: acp.Text("x")},
				acp.Diff{Path: "/w/a.go", OldText: ptr("a\n"), NewText: "b\n"},
				acp.Diff{Path: "/w/new.go", NewText: "new\n", Meta: meta},
				acp.Terminal{TerminalID: "t1"},
			},
			Meta: &acp.ToolCallMeta{TerminalInfo: &acp.TerminalInfo{TerminalID: "t1", Cwd: "/w"}},
		},
		acp.ToolCallUpdate{ToolCallID: "c1", Status: acp.ToolCallStatusCompleted, Content: []acp.ToolCallContent{},
			RawOutput: json.RawMessage(`"done"`),
			Meta: &acp.ToolCallUpdateMeta{TerminalOutput: &acp.TerminalOutput{TerminalID: "t1", Data: "out\n"},
				TerminalExit: &acp.TerminalExit{TerminalID: "t1", ExitCode: ptr(3)}}},
		acp.ToolCallUpdate{ToolCallID: "c1", Status: acp.ToolCallStatusInProgress, Title: "Run", Kind: acp.ToolKindExecute},
		acp.Plan{Entries: []acp.PlanEntry{{Content: "Write it", Priority: "high", Status: "in_progress"}}, Meta: meta},
		acp.AvailableCommandsUpdate{AvailableCommands: []acp.AvailableCommand{{Name: "undo", Description: "Undo", Input: &acp.UnstructuredCommandInput{Hint: "n"}}}},
		acp.CurrentModeUpdate{CurrentModeID: "read-only"},
		acp.ConfigOptionUpdate{ConfigOptions: []acp.SessionConfigOption{
			acp.SelectConfigOption{ID: "mode", Name: "Mode", Category: "mode", CurrentValue: "a",
				Options: []acp.ConfigSelectOption{{Value: "a", Name: "A"}, {Value: "b", Name: "B", Description: "bee"}}},
			acp.SelectConfigOption{ID: "model", Name: "Model", CurrentValue: "x",
				Groups: []acp.ConfigSelectGroup{{Group: "g", Name: "G", Options: []acp.ConfigSelectOption{{Value: "x", Name: "X"}}}}},
			acp.BooleanConfigOption{ID: "think", Name: "Think", CurrentValue: true},
		}},
		acp.SessionInfoUpdate{Title: "A title", UpdatedAt: "2026-12-01T21:00:00Z"},
		acp.UsageUpdate{Used: 10, Size: 100, Cost: &acp.Cost{Amount: 0.25, Currency: "USD"}},
	}
	for _, u := range updates {
		t.Run(reflect.TypeOf(u).Name(), func(t *testing.T) {
			sent := acp.SessionNotification{SessionID: "s1", Update: u}
			roundTrip(t, sent, &acp.SessionNotification{})
		})
	}
	t.Run("RequestPermissionRequest", func(t *testing.T) {
		roundTrip(t, acp.RequestPermissionRequest{
			SessionID: "s1",
			ToolCall:  acp.ToolCall{ToolCallID: "c1", Title: "sh x", Kind: acp.ToolKindExecute, RawInput: json.RawMessage(`{"command":"sh x"}`)},
			Options:   []acp.PermissionOption{{OptionID: "allow-once", Name: "Allow", Kind: acp.PermissionOptionKindAllowOnce}},
		}, &acp.RequestPermissionRequest{})
	})
	t.Run("NewSessionResponse", func(t *testing.T) {
		roundTrip(t, acp.NewSessionResponse{SessionID: "s1", SessionSetup: acp.SessionSetup{
			Modes:         &acp.SessionModeState{CurrentModeID: "a", AvailableModes: []acp.SessionMode{{ID: "a", Name: "A"}}},
			Models:        &acp.SessionModelState{CurrentModelID: "m", AvailableModels: []acp.ModelInfo{{ModelID: "m", Name: "M"}}},
			ConfigOptions: []acp.SessionConfigOption{acp.BooleanConfigOption{ID: "think", Name: "Think"}},
		}}, &acp.NewSessionResponse{})
	})
}

// roundTrip encodes sent, decodes it into into and compares.
func roundTrip[T any](t *testing.T, sent T, into *T) {
	t.Helper()
	data, err := json.Marshal(sent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	if !reflect.DeepEqual(*into, sent) {
		t.Errorf("decoded %s as\n%#v\nwant\n%#v", data, *into, sent)
	}
}

// What does not fit the vocabulary is an error that says what was being
// read, never a zero value.
func TestDecodeRejectsWhatIsNotTheVocabulary(t *testing.T) {
	tests := []struct {
		name, params, want string
	}{
		{"an unknown update", `{"sessionId":"s","update":{"sessionUpdate":"weather"}}`, `unknown session update "weather"`},
		{"no update", `{"sessionId":"s"}`, "session update is not an object"},
		{"an update without its discriminator", `{"sessionId":"s","update":{"content":{}}}`, `session update without "sessionUpdate"`},
		{"a discriminator that is not a string", `{"sessionId":"s","update":{"sessionUpdate":7}}`, `"sessionUpdate" is not a string`},
		{"a chunk without content", `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk"}}`, "content block is not an object"},
		{"an unknown content block", `{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"video"}}}`, `unknown content block "video"`},
		{"an unknown tool call content", `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"c","title":"t","content":[{"type":"map"}]}}`,
			`item 0: acp: unknown tool call content "map"`},
		{"a member of the wrong type", `{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":5,"title":"t"}}`, "session update tool_call"},
		{"a params that is not an object", `[1]`, "session notification is not an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n acp.SessionNotification
			err := json.Unmarshal([]byte(tt.params), &n)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("decoding %s: %v, want an error with %q", tt.params, err, tt.want)
			}
		})
	}
}

// The decoders fill the vocabulary's types field by field: a field added
// to one of them must be decoded too, or decoding drops it silently. This
// fails until decode.go decodes the new field and the count here says so.
func TestDecodeKnowsEveryField(t *testing.T) {
	for _, tt := range []struct {
		v      any
		fields int
	}{
		{acp.SessionNotification{}, 3}, {acp.RequestPermissionRequest{}, 4}, {acp.NewSessionResponse{}, 2}, {acp.SessionSetup{}, 4},
		{acp.ContentChunk{}, 3}, {acp.ToolCall{}, 10}, {acp.ToolCallUpdate{}, 10}, {acp.Plan{}, 2},
		{acp.AvailableCommandsUpdate{}, 2}, {acp.CurrentModeUpdate{}, 2}, {acp.ConfigOptionUpdate{}, 2},
		{acp.SessionInfoUpdate{}, 3}, {acp.UsageUpdate{}, 4},
		{acp.TextContent{}, 3}, {acp.ImageContent{}, 5}, {acp.AudioContent{}, 4}, {acp.ResourceLink{}, 8}, {acp.EmbeddedResource{}, 3},
		{acp.ContentItem{}, 2}, {acp.Diff{}, 4}, {acp.Terminal{}, 2},
		{acp.SelectConfigOption{}, 8}, {acp.BooleanConfigOption{}, 6},
	} {
		if got := reflect.TypeOf(tt.v).NumField(); got != tt.fields {
			t.Errorf("%T has %d fields, the decoder fills %d: decode the new one in decode.go and count it here", tt.v, got, tt.fields)
		}
	}
}
