package bridge

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/policy"
)

func TestEscapeControls(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"go test ./...", "go test ./..."},
		{"line one\n\tline two", "line one\n\tline two"},
		{"printf '\x1b[2J'", `printf '\x1b[2J'`},
		{"bell\a nul\x00 del\x7f", `bell\x07 nul\x00 del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"rm -rf \u202e/ \u2066x\u2069 \u202a", `rm -rf \u202e/ \u2066x\u2069 \u202a`},
		{"bad \xff utf-8", `bad \xff utf-8`},
		{"kept \uFFFD and é", "kept \uFFFD and é"},
	} {
		if got := escapeControls(tt.in); got != tt.want {
			t.Errorf("escapeControls(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPermissionOptionNamesEscapeControls: a remembered rule's subject is
// the model's command words; its option names show them spelled out.
func TestPermissionOptionNamesEscapeControls(t *testing.T) {
	opts := permissionOptions([]policy.Rule{{Tool: "bash", Command: []string{"printf", "\x1b[2J\u202e"}}})
	for _, o := range opts {
		if strings.ContainsAny(o.Name, "\x1b\u202e") {
			t.Errorf("option %s is named %q", o.OptionID, o.Name)
		}
	}
	if want := "Always allow `printf \\x1b[2J\\u202e …` in this project"; opts[1].Name != want {
		t.Errorf("allow-always is named %q, want %q", opts[1].Name, want)
	}
	if u := escapeTitle(acp.SessionInfoUpdate{Title: "a\x1bb"}).(acp.SessionInfoUpdate); u.Title != `a\x1bb` {
		t.Errorf("session title = %q", u.Title)
	}
}
