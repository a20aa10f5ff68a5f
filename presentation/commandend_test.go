package presentation_test

import (
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func TestCommandEnd(t *testing.T) {
	code := func(n int) *int { return &n }
	tests := []struct {
		name    string
		end     presentation.CommandEnd
		failed  bool
		says    string
		console string
	}{
		{"exit 0", presentation.CommandEnd{ExitCode: code(0)}, false, "", "```console\nok\n```"},
		{"end not known", presentation.CommandEnd{}, false, "", "```console\nok\n```"},
		{"non-zero exit", presentation.CommandEnd{ExitCode: code(3)}, true, "exit code 3", "```console\nok\n```\nexit code 3"},
		{"signal", presentation.CommandEnd{Signal: "SIGTERM"}, true, "killed by SIGTERM", "```console\nok\n```\nkilled by SIGTERM"},
		{"timeout in seconds, its signal left unsaid", presentation.CommandEnd{Signal: "SIGKILL", Timeout: 120 * time.Second}, true, "timed out after 120 s", "```console\nok\n```\ntimed out after 120 s"},
		{"timeout in milliseconds, exit 0", presentation.CommandEnd{ExitCode: code(0), Timeout: 1500 * time.Millisecond}, true, "timed out after 1500 ms", "```console\nok\n```\ntimed out after 1500 ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.end.Failed(); got != tt.failed {
				t.Errorf("Failed() = %v, want %v", got, tt.failed)
			}
			if got := tt.end.String(); got != tt.says {
				t.Errorf("String() = %q, want %q", got, tt.says)
			}
			if got := presentation.ConsoleText("ok\n", tt.end); got != tt.console {
				t.Errorf("ConsoleText = %q, want %q", got, tt.console)
			}
		})
	}
}

func TestFence(t *testing.T) {
	tests := []struct{ info, text, want string }{
		{"go", "x := 1\n\n", "```go\nx := 1\n```"},
		{"console", "a ``` b", "````console\na ``` b\n````"},
		{"", "", "```\n\n```"},
	}
	for _, tt := range tests {
		if got := presentation.Fence(tt.info, tt.text); got != tt.want {
			t.Errorf("Fence(%q, %q) = %q, want %q", tt.info, tt.text, got, tt.want)
		}
	}
}

func TestTerminalResultViewEnd(t *testing.T) {
	code := 2
	v := presentation.TerminalResultView{ExitCode: &code, Timeout: time.Second}
	if got := v.End(); got.ExitCode != &code || got.Timeout != time.Second || got.Signal != "" {
		t.Errorf("End() = %+v, want the view's exit and timeout", got)
	}
}
