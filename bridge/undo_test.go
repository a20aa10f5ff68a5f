package bridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// /undo puts back every file the last turn changed — through the file
// tools and through a command — shows each as a diff, and goes one turn
// further back when repeated.
func TestUndoRestoresTheLastTurn(t *testing.T) {
	dir := tempDir(t)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) (string, bool) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		return string(data), err == nil
	}
	write("edited.txt", "one\r\ntwo") // CRLF, no final newline
	write("g", "to be removed\n")
	model := llm.NewScripted(
		toolStep("w1", "write", map[string]any{"file_path": "new.txt", "content": "fresh\n"}),
		toolStep("e1", "edit", map[string]any{"file_path": "edited.txt", "old_string": "two", "new_string": "TWO"}),
		toolStep("b1", "bash", map[string]any{"command": "echo x > f; rm g"}),
		llm.Message{Content: "Done."},
		toolStep("w2", "write", map[string]any{"file_path": "second.txt", "content": "turn two\n"}),
		llm.Message{Content: "Done again."},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	e.prompt(s, "change things")
	e.prompt(s, "change more")
	if _, ok := read("second.txt"); !ok {
		t.Fatal("the second turn wrote nothing")
	}

	before := len(e.updates(s))
	if got := e.prompt(s, "/undo"); got != "end_turn" {
		t.Fatalf("/undo = %s", got)
	}
	if _, ok := read("second.txt"); ok {
		t.Error("the first /undo left the second turn's file")
	}
	if _, ok := read("new.txt"); !ok {
		t.Error("the first /undo went past the second turn")
	}

	e.prompt(s, "/undo")
	for name, want := range map[string]string{"edited.txt": "one\r\ntwo", "g": "to be removed\n"} {
		if got, ok := read(name); !ok || got != want {
			t.Errorf("%s = %q (exists %t), want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"new.txt", "f"} {
		if _, ok := read(name); ok {
			t.Errorf("%s is still there after /undo", name)
		}
	}
	var cards, diffs int
	for _, u := range e.updates(s)[before:] {
		if u.Kind == "tool_call" && strings.HasPrefix(u.ToolCallID, "undo-") {
			cards++
			for _, it := range u.items() {
				if it.Type == "diff" {
					diffs++
				}
			}
		}
	}
	if cards != 2 || diffs != 5 { // second.txt; then new.txt, edited.txt, f, g
		t.Errorf("%d undo cards with %d diffs, want 2 with 5", cards, diffs)
	}
	if reply := agentReply(e, s); !strings.Contains(reply, "Restored 4 files") {
		t.Errorf("replies = %q", reply)
	}
	e.prompt(s, "/undo")
	if reply := agentReply(e, s); !strings.Contains(reply, "Nothing to undo") {
		t.Errorf("a third /undo: %q", reply)
	}
}
