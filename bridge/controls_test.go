package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTitlesEscapeControlCharacters: a command holding an escape sequence
// (clear the screen) and a right-to-left override reaches the editor, in
// its tool_call title and in the permission request, spelled out: the
// editor draws no control character the model wrote.
func TestTitlesEscapeControlCharacters(t *testing.T) {
	const command = "touch marker # \x1b[2J\u202eevil"
	const shown = `touch marker # \x1b[2J\u202eevil`
	e := newEnv(t, withProvider(replyOnce(call("c_ctl", "bash", map[string]any{"command": command}))))
	e.c.Handle("session/request_permission", choose("allow-once"))
	e.initialize(plainInitialize)
	s := e.newSession("")
	if got := e.prompt(s, "clear the screen"); got != "end_turn" {
		t.Fatalf("stopReason = %s", got)
	}
	var titles []string
	for _, u := range forCall(e.updates(s), "c_ctl") {
		if u.Title != nil {
			titles = append(titles, *u.Title)
		}
	}
	for _, f := range e.c.Frames() {
		if f.Method != "session/request_permission" {
			continue
		}
		var req struct {
			ToolCall struct {
				Title string `json:"title"`
			} `json:"toolCall"`
		}
		if err := json.Unmarshal(f.Params, &req); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, req.ToolCall.Title)
	}
	if len(titles) < 2 {
		t.Fatalf("titles = %q, want the tool_call's and the permission request's", titles)
	}
	for _, title := range titles {
		if strings.ContainsAny(title, "\x1b\u202e") || !strings.Contains(title, shown) {
			t.Errorf("title %q, want it to show %q", title, shown)
		}
	}
}
