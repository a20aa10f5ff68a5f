package checkpoint_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// TestMissingGit: without a git binary Open fails with ErrNoGit, and the
// fallback undoes what the file tools wrote (not what commands did) and
// says so.
func TestMissingGit(t *testing.T) {
	p := newProject(t)
	bins := t.TempDir()
	notExecutable := filepath.Join(bins, "not-executable")
	os.WriteFile(notExecutable, []byte("#!/bin/sh\n"), 0o644)
	for _, bin := range []string{"dsh-acp-no-such-git", filepath.Join(bins, "git"), notExecutable} {
		_, err := checkpoint.Open(ctx(t), checkpoint.Options{Root: p.root, StateDir: p.state, Git: bin})
		if !errors.Is(err, checkpoint.ErrNoGit) {
			t.Errorf("Open with git %q: %v, want ErrNoGit", bin, err)
		}
	}
	// git uninstalled while the session runs.
	if real, err := exec.LookPath("git"); err == nil {
		vanishing := filepath.Join(bins, "vanishing-git")
		linktest.Symlink(t, real, vanishing)
		c, err := checkpoint.Open(ctx(t), checkpoint.Options{Root: p.root, StateDir: p.state, Git: vanishing})
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(vanishing)
		if _, err := c.Push(ctx(t), "turn"); !errors.Is(err, checkpoint.ErrNoGit) {
			t.Errorf("Push without git: %v, want ErrNoGit", err)
		}
	}

	p.write("edit.txt", "before\r\nno final newline")
	p.writeMode("run.sh", "#!/bin/sh\n", 0o755)
	p.write("by-command.txt", "before\n")
	pre := checkpoint.NewPreImages(workspace.Local{}, checkpoint.PreImagesOptions{})
	files := pre.Files()
	if _, err := pre.Push(ctx(t), "turn 1"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ rel, content string }{
		{"edit.txt", "after 1"}, {"edit.txt", "after 2"}, // the first write's pre-image counts
		{"new/dir/created.txt", "new\n"},
		{"run.sh", "#!/bin/sh\necho changed\n"},
	} {
		if err := files.WriteFile(ctx(t), p.path(w.rel), []byte(w.content)); err != nil {
			t.Fatal(err)
		}
	}
	p.remove("run.sh")                          // a command removed it after the tool wrote it
	p.write("by-command.txt", "by a command\n") // not seen by the file tools

	finish(t, pre)
	restored, err := pre.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"edit.txt: after 2 -> before\r\nno final newline",
		"new/dir/created.txt: new\n -> <absent>",
		"run.sh: <absent> -> #!/bin/sh\n",
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
	if restored.Note != checkpoint.FallbackNote || !strings.Contains(restored.Note, "commands are not covered") {
		t.Errorf("Note = %q", restored.Note)
	}
	if _, err := os.Stat(p.path("new")); !os.IsNotExist(err) {
		t.Errorf("the directories the write created are still there: %v", err)
	}
	if info, err := os.Stat(p.path("run.sh")); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("run.sh recreated with %v, %v; want mode 0755", info.Mode(), err)
	}
	if got := p.read("by-command.txt"); got != "by a command\n" {
		t.Errorf("by-command.txt = %q: the fallback does not cover commands", got)
	}
	if _, err := pre.Undo(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("second Undo: %v, want ErrNothingToUndo", err)
	}
}

// TestPreImagesTurns: turns are undone one by one, a write outside any
// turn is not remembered, Keep and the size limits hold.
func TestPreImagesTurns(t *testing.T) {
	p := newProject(t)
	p.write("a.txt", "v0")
	p.write("big.txt", strings.Repeat("b", 100))
	pre := checkpoint.NewPreImages(workspace.Local{}, checkpoint.PreImagesOptions{Keep: 2, MaxFileSize: 50})
	files := pre.Files()
	write := func(rel, content string) {
		t.Helper()
		if err := files.WriteFile(ctx(t), p.path(rel), []byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "outside any turn")
	for _, v := range []string{"v1", "v2", "v3"} {
		if _, err := pre.Push(ctx(t), "turn "+v); err != nil {
			t.Fatal(err)
		}
		write("a.txt", v)
		if v == "v3" {
			write("big.txt", "small now")
		}
		finish(t, pre)
	}
	list, _ := pre.List(ctx(t))
	if len(list) != 2 || list[0].Label != "turn v3" || list[1].Label != "turn v2" {
		t.Errorf("List = %+v", list)
	}
	finish(t, pre)
	restored, err := pre.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.read("a.txt") != "v2" || p.read("big.txt") != "small now" {
		t.Errorf("after the first undo: a.txt = %q, big.txt = %q", p.read("a.txt"), p.read("big.txt"))
	}
	if want := []checkpoint.Skipped{{Path: p.path("big.txt"), Reason: checkpoint.ReasonTooLarge, Size: 100}}; !slices.Equal(restored.Untouched, want) {
		t.Errorf("Untouched = %+v, want %+v", restored.Untouched, want)
	}
	if _, err := pre.Undo(ctx(t)); err != nil || p.read("a.txt") != "v1" {
		t.Errorf("second undo: %v, a.txt = %q", err, p.read("a.txt"))
	}
	if _, err := pre.Undo(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("third undo (beyond Keep): %v", err)
	}
	if err := pre.Remember(ctx(t), "relative.txt"); err == nil {
		t.Error("Remember accepted a relative path")
	}
}

// TestPreImagesMemoryBudget: past MaxBytes the oldest turns go, and a
// file that still does not fit is not recorded and is reported.
func TestPreImagesMemoryBudget(t *testing.T) {
	p := newProject(t)
	p.write("one.txt", strings.Repeat("1", 60))
	p.write("two.txt", strings.Repeat("2", 60))
	pre := checkpoint.NewPreImages(workspace.Local{}, checkpoint.PreImagesOptions{MaxBytes: 100})
	files := pre.Files()
	pre.Push(ctx(t), "first")
	files.WriteFile(ctx(t), p.path("one.txt"), []byte(strings.Repeat("c", 60)))
	finish(t, pre)
	pre.Push(ctx(t), "second")
	files.WriteFile(ctx(t), p.path("two.txt"), []byte("changed")) // drops the first turn
	files.WriteFile(ctx(t), p.path("one.txt"), []byte("again"))   // does not fit beside two.txt
	list, _ := pre.List(ctx(t))
	if len(list) != 1 || list[0].Label != "second" {
		t.Fatalf("List = %+v, want the second turn only", list)
	}
	finish(t, pre)
	restored, err := pre.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if p.read("two.txt") != strings.Repeat("2", 60) || p.read("one.txt") != "again" {
		t.Errorf("two.txt = %q, one.txt = %q", p.read("two.txt"), p.read("one.txt"))
	}
	if want := []checkpoint.Skipped{{Path: p.path("one.txt"), Reason: checkpoint.ReasonNotRecorded}}; !slices.Equal(restored.Untouched, want) {
		t.Errorf("Untouched = %+v, want %+v", restored.Untouched, want)
	}
}
