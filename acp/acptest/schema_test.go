package acptest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// TestSchemaDefinitions checks the method → definition map read from the
// schema's annotations.
func TestSchemaDefinitions(t *testing.T) {
	s := mustSchema(t)
	tests := []struct {
		from   acptest.Side
		kind   acptest.Kind
		method string
		want   string
	}{
		{acptest.FromAgent, acptest.Notification, "session/update", "SessionNotification"},
		{acptest.FromAgent, acptest.Response, "session/prompt", "PromptResponse"},
		{acptest.FromAgent, acptest.Response, "initialize", "InitializeResponse"},
		{acptest.FromAgent, acptest.Request, "session/request_permission", "RequestPermissionRequest"},
		{acptest.FromAgent, acptest.Request, "fs/read_text_file", "ReadTextFileRequest"},
		{acptest.FromClient, acptest.Request, "session/prompt", "PromptRequest"},
		{acptest.FromClient, acptest.Response, "session/request_permission", "RequestPermissionResponse"},
		{acptest.FromClient, acptest.Notification, "session/cancel", "CancelNotification"},
		{acptest.FromClient, acptest.Notification, "$/cancel_request", "CancelRequestNotification"},
		{acptest.FromAgent, acptest.Notification, "$/cancel_request", "CancelRequestNotification"},
		{acptest.FromAgent, acptest.Response, "session/new", "extra:NewSessionResponse"},
		{acptest.FromClient, acptest.Request, "session/set_model", "extra:SetSessionModelRequest"},
	}
	for _, tt := range tests {
		got, ok := s.Definition(tt.from, tt.kind, tt.method)
		if !ok || got != tt.want {
			t.Errorf("Definition(%s, %s, %s) = %q, %v; want %q", tt.from, tt.kind, tt.method, got, ok, tt.want)
		}
	}
	if _, ok := s.Definition(acptest.FromAgent, acptest.Notification, "session/cancel"); ok {
		t.Error("the agent must not send session/cancel")
	}
}

// TestSchemaValidate checks good messages pass and bad ones — including
// those the schema root would accept — are caught.
func TestSchemaValidate(t *testing.T) {
	s := mustSchema(t)
	tests := []struct {
		name    string
		kind    acptest.Kind
		method  string
		payload string
		wantErr bool
	}{
		{"text chunk", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}`, false},
		{"tool_call", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1","title":"ls","_meta":{"terminal_info":{"terminal_id":"c1"}}}}`, false},
		{"tool_call without title", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1"}}`, true},
		{"unknown update", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"telepathy"}}`, true},
		{"update without sessionId", acptest.Notification, "session/update", `{"update":{"sessionUpdate":"plan","entries":[]}}`, true},
		{"bad tool status", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"c1","status":"exploded"}}`, true},
		{"end_turn", acptest.Response, "session/prompt", `{"stopReason":"end_turn"}`, false},
		{"stopReason done", acptest.Response, "session/prompt", `{"stopReason":"done"}`, true},
		{"no stopReason", acptest.Response, "session/prompt", `{}`, true},
		{"new session", acptest.Response, "session/new", `{"sessionId":"s1"}`, false},
		{"new session without id", acptest.Response, "session/new", `{}`, true},
		{"new session with models", acptest.Response, "session/new", `{"sessionId":"s1","models":{"currentModelId":"m1","availableModels":[{"modelId":"m1","name":"M1"}]}}`, false},
		{"models without currentModelId", acptest.Response, "session/new", `{"sessionId":"s1","models":{"availableModels":[]}}`, true},
		{"a model without name", acptest.Response, "session/resume", `{"models":{"currentModelId":"m1","availableModels":[{"modelId":"m1"}]}}`, true},
		{"loaded models and modes", acptest.Response, "session/load", `{"modes":{"currentModeId":"a","availableModes":[{"id":"a","name":"A"}]},"models":{"currentModelId":"m1","availableModels":[]}}`, false},
		{"loaded without a mode id", acptest.Response, "session/load", `{"modes":{"availableModes":[]}}`, true},
		{"set_model answer", acptest.Response, "session/set_model", `{}`, false},
		{"permission request", acptest.Request, "session/request_permission", `{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"allow-once","name":"Allow","kind":"allow_once"}]}`, false},
		{"permission option kind", acptest.Request, "session/request_permission", `{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"a","name":"A","kind":"sure"}]}`, true},
		{"unknown method", acptest.Notification, "session/telepathy", `{}`, true},
		{"subagent update (unstable)", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c1","title":"find it","capabilities":{"cancel":{}},"state":{"state":"running"}}}`, false},
		{"subagent update without its sessionId", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","title":"x"}}`, true},
		{"subagent update, bad title", acptest.Notification, "session/update", `{"sessionId":"s1","update":{"sessionUpdate":"subagent_update","sessionId":"c1","title":7}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(acptest.FromAgent, tt.kind, tt.method, json.RawMessage(tt.payload))
			if (err != nil) != tt.wantErr {
				t.Errorf("Validate = %v, want error %v", err, tt.wantErr)
			}
		})
	}
}

// TestSchemaValidateError checks error objects.
func TestSchemaValidateError(t *testing.T) {
	s := mustSchema(t)
	tests := []struct {
		obj     string
		wantErr bool
	}{
		{`{"code":-32602,"message":"bad"}`, false},
		{`{"code":-32002,"message":"nope","data":{"path":"/x"}}`, false},
		{`{"code":0,"message":"zero"}`, true},
		{`{"message":"no code"}`, true},
		{`{"code":-32603}`, true},
	}
	for _, tt := range tests {
		if err := s.ValidateError(json.RawMessage(tt.obj)); (err != nil) != tt.wantErr {
			t.Errorf("ValidateError(%s) = %v, want error %v", tt.obj, err, tt.wantErr)
		}
	}
}

// TestSchemaMissing checks a missing schema is an error that says how to
// install it.
func TestSchemaMissing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	_, err := acptest.OpenSchema()
	if err == nil || !strings.Contains(err.Error(), "run `make deps` first") || !strings.Contains(err.Error(), "npm ci --prefix e2e") {
		t.Fatalf("OpenSchema = %v, want an error saying to run make deps (npm ci --prefix e2e)", err)
	}
}
