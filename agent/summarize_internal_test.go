package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

func TestCutMiddle(t *testing.T) {
	tests := []struct {
		name, in string
		limit    int
		want     string
	}{
		{"short enough", "abcdef", 6, "abcdef"},
		{"cut", "abcdefghijklmnop", 8, "abcd\n[… 10 bytes of x left out …]\nop"},
		// "é" is two bytes: a head that would end inside it ends before
		// it, a tail that would start inside it starts after it.
		{"head at a rune boundary", "abcé" + strings.Repeat("z", 8) + "éxy", 8, "abc\n[… 12 bytes of x left out …]\nxy"},
		{"tail at a rune boundary", "abcé" + strings.Repeat("z", 8) + "éxy", 12, "abcéz\n[… 9 bytes of x left out …]\nxy"},
	}
	for _, tt := range tests {
		got := cutMiddle(tt.in, tt.limit, "of x")
		if got != tt.want || !utf8.ValidString(got) {
			t.Errorf("%s: cutMiddle = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestTranscriptTurn(t *testing.T) {
	text := func(s string) []presentation.ContentBlock { return []presentation.ContentBlock{presentation.Text(s)} }
	evs := events(
		session.TurnStarted{}, user("fix the test"),
		session.AssistantMessage{Text: "Looking.", Reasoning: "secret thoughts", ToolCalls: []session.ToolCallRef{
			{ID: "c1", Name: "read", Arguments: `{"file_path":"a_test.go"}`},
			{ID: "c2", Name: "bash", Arguments: `{"command":"go test"}`},
		}},
		session.ToolResult{CallID: "c1", Content: text("package a")},
		session.ToolResult{CallID: "c2", Content: text("FAIL"), IsError: true, Code: "EXIT_1"},
		session.ContextMessage{},
		session.TurnEnded{Reason: session.StopCancelled},
	)
	got := transcriptTurn(span{turn: 7, events: evs})
	want := "## Turn 7\n\nUser:\nfix the test\n\nAgent:\nLooking.\n\n" +
		"Agent called read {\"file_path\":\"a_test.go\"}\n\nAgent called bash {\"command\":\"go test\"}\n\n" +
		"read result:\npackage a\n\nbash failed (EXIT_1):\nFAIL\n\nContext given to the agent:\n\n\n" +
		"(The user cancelled the turn here.)\n\n"
	if got != want {
		t.Errorf("transcript =\n%s\nwant\n%s", got, want)
	}
}
