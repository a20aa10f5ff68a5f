package bridge_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// filesIn returns functions that write a file of dir (0644) and read
// one (ok is false when it is absent).
func filesIn(t *testing.T, dir string) (write func(name, text string), read func(name string) (string, bool)) {
	write = func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read = func(name string) (string, bool) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		return string(data), err == nil
	}
	return write, read
}

// /undo puts back every file the last turn changed — through the file
// tools and through a command — shows each as a diff, and goes one turn
// further back when repeated.
func TestUndoRestoresTheLastTurn(t *testing.T) {
	dir := tempDir(t)
	write, read := filesIn(t, dir)
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
	// Each undo card is finished the way a tool call is: announced, then
	// completed with its diffs (a client that takes a call's result from
	// its completing update never sees one for a card born completed).
	var cards, diffs int
	after := e.updates(s)[before:]
	for _, u := range after {
		if u.Kind != "tool_call" || !strings.HasPrefix(u.ToolCallID, "undo-") {
			continue
		}
		cards++
		card := forCall(after, u.ToolCallID)
		wantStatuses(t, card, "in_progress", "completed")
		for _, it := range card[len(card)-1].items() {
			if it.Type == "diff" {
				diffs++
			}
		}
	}
	if cards != 2 || diffs != 5 { // second.txt; then new.txt, edited.txt, f, g
		t.Errorf("%d undo cards with %d diffs, want 2 with 5", cards, diffs)
	}
	if reply := agentReply(e, s); !strings.Contains(reply, "Reverted 4 files") {
		t.Errorf("replies = %q", reply)
	}
	e.prompt(s, "/undo")
	if reply := agentReply(e, s); !strings.Contains(reply, "Nothing to undo") {
		t.Errorf("a third /undo: %q", reply)
	}
}

// /undo reverts only what the last turn changed and is still as the turn
// left it: a file changed after the turn, one the turn never touched and
// one created after it stay, and the reply names what was reverted and
// each file left as it is, with why.
func TestUndoLeavesLaterChanges(t *testing.T) {
	dir := tempDir(t)
	write, read := filesIn(t, dir)
	write("edited.txt", "before\n")
	write("untouched.txt", "u0\n")
	model := llm.NewScripted(
		toolStep("w1", "write", map[string]any{"file_path": "new.txt", "content": "fresh\n"}),
		toolStep("w2", "write", map[string]any{"file_path": "edited.txt", "content": "by the turn\n"}),
		llm.Message{Content: "Done."},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess), withDir(dir))
	e.initialize(plainInitialize)
	s := e.newSession("")
	e.prompt(s, "change things")
	write("edited.txt", "the user's edit after the turn\n")
	write("untouched.txt", "the user's too\n")
	write("mine.txt", "created by the user after the turn\n")

	e.prompt(s, "/undo")
	for name, want := range map[string]string{
		"new.txt":       "<absent>",
		"edited.txt":    "the user's edit after the turn\n",
		"untouched.txt": "the user's too\n",
		"mine.txt":      "created by the user after the turn\n",
	} {
		if got, ok := read(name); got != want && (ok || want != "<absent>") {
			t.Errorf("%s = %q (exists %t), want %q", name, got, ok, want)
		}
	}
	reply := agentReply(e, s)
	for _, want := range []string{
		"Reverted 1 file the last turn changed:\n- new.txt",
		"Left as it is (nothing was overwritten or deleted):\n- edited.txt: it changed after the turn",
	} {
		if !strings.Contains(reply, want) {
			t.Errorf("reply %q lacks %q", reply, want)
		}
	}
	if strings.Contains(reply, "untouched.txt") || strings.Contains(reply, "mine.txt") {
		t.Errorf("reply %q names files the turn did not change", reply)
	}
}

// A cancelled turn gets its end checkpoint too: /undo reverts what it did
// before the cancel and keeps what the user created after it.
func TestUndoAfterCancel(t *testing.T) {
	model := llm.NewScripted(
		toolStep("c1", "bash", map[string]any{"command": "echo made > made.txt; " + sleeper("pids")}),
		llm.Message{Content: "ok"},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.FullAccess))
	e.initialize(plainInitialize)
	s := e.newSession("")
	p := e.startPrompt(s, "make and sleep")
	pids, pgid := commandGroup(t, e.dir+"/pids")
	e.cancel(s)
	if got := p.stop(); got != "cancelled" {
		t.Fatalf("stopReason = %s, want cancelled", got)
	}
	eventually(t, "the command's process group to die after session/cancel", func() bool {
		return len(anyAlive(pids, pgid)) == 0
	})
	mine := filepath.Join(e.dir, "mine.txt")
	if err := os.WriteFile(mine, []byte("after the cancel\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.prompt(s, "/undo")
	if _, err := os.Stat(filepath.Join(e.dir, "made.txt")); err == nil {
		t.Errorf("made.txt is still there; reply %q", agentReply(e, s))
	}
	if data, err := os.ReadFile(mine); err != nil || string(data) != "after the cancel\n" {
		t.Errorf("mine.txt = %q, %v; want it kept", data, err)
	}
}
