package llm_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// TestThinkingSettingsAreSentWhenSet: Config.Thinking becomes
// "thinking": {"type": …} and Config.ReasoningEffort "reasoning_effort";
// unset, neither field is sent.
func TestThinkingSettingsAreSentWhenSet(t *testing.T) {
	tests := []struct {
		name      string
		thinking  string
		effort    string
		wantThink any // nil: absent
		wantEff   any
	}{
		{name: "unset", wantThink: nil, wantEff: nil},
		{name: "enabled, max", thinking: llm.ThinkingEnabled, effort: "max", wantThink: map[string]any{"type": "enabled"}, wantEff: "max"},
		{name: "disabled", thinking: llm.ThinkingDisabled, wantThink: map[string]any{"type": "disabled"}, wantEff: nil},
		{name: "effort alone", effort: "high", wantThink: nil, wantEff: "high"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := newModelServer(t, streamChunks(chunk(`{"content":"ok"}`, "stop")))
			cfg := testConfig(ms, &fakeSleeper{})
			cfg.Thinking, cfg.ReasoningEffort = tt.thinking, tt.effort
			if _, _, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi")); err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			if err := json.Unmarshal([]byte(ms.requests()[0]), &body); err != nil {
				t.Fatal(err)
			}
			if got := body["thinking"]; !reflect.DeepEqual(got, tt.wantThink) {
				t.Errorf("thinking = %#v, want %#v", got, tt.wantThink)
			}
			if got := body["reasoning_effort"]; !reflect.DeepEqual(got, tt.wantEff) {
				t.Errorf("reasoning_effort = %#v, want %#v", got, tt.wantEff)
			}
		})
	}
}

// TestReasoningGoesBackVerbatim: every earlier assistant message's
// reasoning goes back as reasoning_content, byte for byte, with tool calls
// or without (DeepSeek's thinking models answer 400 otherwise).
func TestReasoningGoesBackVerbatim(t *testing.T) {
	ms := newModelServer(t, streamChunks(chunk(`{"content":"ok"}`, "stop")))
	reasonings := []string{
		"  I should read a.go first.\n\n- then fix it  ",
		"The file has a typo on line 3; edit it.",
		"Done; say so.\n",
	}
	req := llm.Request{Messages: []llm.Message{
		llm.UserMessage("fix a.go"),
		{Role: llm.RoleAssistant, Reasoning: reasonings[0], ToolCalls: []llm.ToolCall{{ID: "c1", Name: "read", Arguments: `{"file_path":"a.go"}`}}},
		llm.ToolResultMessage("c1", "package a"),
		{Role: llm.RoleAssistant, Content: "Fixing.", Reasoning: reasonings[1], ToolCalls: []llm.ToolCall{{ID: "c2", Name: "edit", Arguments: `{}`}}},
		llm.ToolResultMessage("c2", "edited"),
		{Role: llm.RoleAssistant, Content: "Fixed.", Reasoning: reasonings[2]},
		llm.UserMessage("thanks"),
	}}
	if _, _, err := collect(t, t.Context(), llm.NewOpenAI(testConfig(ms, &fakeSleeper{})), req); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role             string           `json:"role"`
			ReasoningContent *string          `json:"reasoning_content"`
			ToolCalls        []map[string]any `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(ms.requests()[0]), &body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range body.Messages {
		switch {
		case m.Role == "assistant" && m.ReasoningContent != nil:
			got = append(got, *m.ReasoningContent)
		case m.Role == "assistant":
			t.Errorf("an assistant message went back without reasoning_content")
		case m.ReasoningContent != nil:
			t.Errorf("a %s message carries reasoning_content", m.Role)
		}
	}
	if !reflect.DeepEqual(got, reasonings) {
		t.Errorf("reasoning_content sent\n got %q\nwant %q", got, reasonings)
	}
	if !strings.Contains(ms.requests()[0], `"tool_calls"`) {
		t.Errorf("tool calls missing from the request")
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		cfg     llm.Config
		wantErr string
	}{
		{cfg: llm.Config{}},
		{cfg: llm.Config{Thinking: "enabled", ReasoningEffort: "max"}},
		{cfg: llm.Config{Thinking: "disabled"}},
		{cfg: llm.Config{Thinking: "on"}, wantErr: `thinking (DSH_THINKING) must be "enabled" or "disabled", not "on"`},
		{cfg: llm.Config{ReasoningEffort: "very high"}, wantErr: `reasoning effort (DSH_REASONING_EFFORT) must be a lower-case word`},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("Validate(%+v) = %v, want %q", tt.cfg, err, tt.wantErr)
		}
		if _, perr := llm.NewProvider(tt.cfg); (perr == nil) != (err == nil) {
			t.Errorf("NewProvider(%+v) = %v, Validate = %v", tt.cfg, perr, err)
		}
	}
}
