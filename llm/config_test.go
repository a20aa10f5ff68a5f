package llm_test

import (
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want llm.Config
	}{
		{
			name: "defaults",
			env:  nil,
			want: llm.Config{BaseURL: "https://api.deepseek.com", Model: "deepseek-v4-flash", APIKeyVar: "DSH_API_KEY"},
		},
		{
			name: "DSH_API_KEY wins over DEEPSEEK_API_KEY",
			env:  map[string]string{"DSH_API_KEY": "a", "DEEPSEEK_API_KEY": "b"},
			want: llm.Config{BaseURL: "https://api.deepseek.com", Model: "deepseek-v4-flash", APIKey: "a", APIKeyVar: "DSH_API_KEY"},
		},
		{
			name: "DEEPSEEK_API_KEY as fallback",
			env:  map[string]string{"DEEPSEEK_API_KEY": " b\n"},
			want: llm.Config{BaseURL: "https://api.deepseek.com", Model: "deepseek-v4-flash", APIKey: "b", APIKeyVar: "DEEPSEEK_API_KEY"},
		},
		{
			name: "everything set",
			env: map[string]string{
				"DSH_BASE_URL": "http://localhost:11434/v1", "DSH_MODEL": "qwen3",
				"DSH_API_KEY": "k", "DSH_MODEL_SCRIPT": "/tmp/s.jsonl",
				"DSH_THINKING": " Disabled ", "DSH_REASONING_EFFORT": "MAX",
			},
			want: llm.Config{
				BaseURL: "http://localhost:11434/v1", Model: "qwen3", APIKey: "k", APIKeyVar: "DSH_API_KEY", ModelScript: "/tmp/s.jsonl",
				Thinking: "disabled", ReasoningEffort: "max",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := llm.ConfigFromEnv(func(k string) string { return tt.env[k] })
			if got.Retry.Sleep != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestNewOpenAIFillsRetryDefaults(t *testing.T) {
	r := llm.NewOpenAI(llm.ConfigFromEnv(func(string) string { return "" })).Config().Retry
	if r.MaxAttempts != 4 || r.Sleep == nil || r.Now == nil || r.Jitter == nil {
		t.Errorf("retry defaults not filled: %+v", r)
	}
}
