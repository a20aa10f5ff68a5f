package bridge_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/policy"
)

// A bash call is shown for what it is (every frame schema-validated by
// the harness): a plain read as a read card at its line, a search as a
// search card, git diff's output as diff cards.
func TestCommandsShownForWhatTheyAre(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := tempDir(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\ntwo\nthree\nfour\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "start")
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\nTWO\nthree\nfour\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := llm.NewScripted(
		toolStep("r1", "bash", map[string]any{"command": "sed -n '2,3p' notes.txt"}),
		toolStep("s1", "bash", map[string]any{"command": "grep -n three notes.txt"}),
		toolStep("d1", "bash", map[string]any{"command": "git diff"}),
		llm.Message{Content: "Looked."},
	)
	e := newEnv(t, withProvider(model), withPreset(policy.WorkspaceWrite), withDir(dir))
	e.initialize(caps(true, false, false))
	s := e.newSession("")
	if got := e.prompt(s, "look around"); got != "end_turn" {
		t.Fatalf("prompt = %s", got)
	}
	us := e.updates(s)
	read := forCall(us, "r1")
	if read[0].ToolKind != "read" || len(read[0].Locations) != 1 || read[0].Locations[0].Path != filepath.Join(dir, "notes.txt") ||
		read[0].Locations[0].Line == nil || *read[0].Locations[0].Line != 1 {
		t.Errorf("the read card: %s", read[0].Raw)
	}
	if st := finalStatus(read); st != "completed" {
		t.Errorf("read ended %s", st)
	}
	if search := forCall(us, "s1"); search[0].ToolKind != "search" {
		t.Errorf("the search card: %s", search[0].Raw)
	}
	diff := forCall(us, "d1")
	last := diff[len(diff)-1]
	items := last.items()
	if len(items) != 1 || items[0].Type != "diff" || items[0].Path != filepath.Join(dir, "notes.txt") ||
		items[0].OldText == nil || !strings.Contains(*items[0].OldText, "two") || !strings.Contains(items[0].NewText, "TWO") {
		t.Errorf("git diff's card: %s", last.Raw)
	}
}
