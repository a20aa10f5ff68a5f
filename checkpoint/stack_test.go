package checkpoint_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// TestRepeatedUndo: three turns, undone one after the other, each going
// one turn further back; the stack is listed newest first.
func TestRepeatedUndo(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("story.txt", "v0\n")
	c := p.open(checkpoint.Options{})
	for turn := 1; turn <= 3; turn++ {
		if _, err := c.Push(ctx(t), fmt.Sprintf("turn %d", turn)); err != nil {
			t.Fatal(err)
		}
		p.write("story.txt", fmt.Sprintf("v%d\n", turn))
		p.write(fmt.Sprintf("turn%d.txt", turn), "made in this turn\n")
		finish(t, c)
	}
	list, err := c.List(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, cp := range list {
		labels = append(labels, cp.Label)
	}
	if want := []string{"turn 3", "turn 2", "turn 1"}; !slices.Equal(labels, want) {
		t.Errorf("List labels = %q, want %q", labels, want)
	}
	for turn := 3; turn >= 1; turn-- {
		restored, err := c.Undo(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		if restored.Checkpoint.Label != fmt.Sprintf("turn %d", turn) {
			t.Errorf("undid %q, want turn %d", restored.Checkpoint.Label, turn)
		}
		if got, want := p.read("story.txt"), fmt.Sprintf("v%d\n", turn-1); got != want {
			t.Errorf("after undoing turn %d: story.txt = %q, want %q", turn, got, want)
		}
		if got := p.read(fmt.Sprintf("turn%d.txt", turn)); got != "<absent>" {
			t.Errorf("after undoing turn %d its file is still there", turn)
		}
	}
	if _, err := c.Undo(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("fourth Undo: %v, want ErrNothingToUndo", err)
	}
}

// TestStackSurvivesRestart: a stack pushed by one value (one process) is
// undone by the next, and a stale git lock left by a killed command is
// no obstacle.
func TestStackSurvivesRestart(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a.txt", "before\n")
	first := p.open(checkpoint.Options{Stack: "session-1"})
	if _, err := first.Push(ctx(t), "turn 1"); err != nil {
		t.Fatal(err)
	}
	p.write("a.txt", "after\n")
	finish(t, first)
	// A git killed while it wrote the index leaves its lock behind.
	matches, _ := filepath.Glob(filepath.Join(p.state, "checkpoints", "*", "git"))
	if len(matches) != 1 {
		t.Fatalf("shadow repositories: %v", matches)
	}
	if err := os.WriteFile(filepath.Join(matches[0], "index.lock"), nil, 0o600); err != nil {
		t.Fatal(err)
	}

	second := p.open(checkpoint.Options{Stack: "session-1"})
	if _, err := second.Undo(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if got := p.read("a.txt"); got != "before\n" {
		t.Errorf("a.txt = %q", got)
	}
	// Another session's stack is its own.
	other := p.open(checkpoint.Options{Stack: "session-2"})
	if _, err := other.Undo(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("another stack: %v, want ErrNothingToUndo", err)
	}
}

// TestKeepBoundsTheStack: Push drops the oldest checkpoints beyond Keep;
// Clear drops them all.
func TestKeepBoundsTheStack(t *testing.T) {
	needGit(t)
	p := newProject(t)
	c := p.open(checkpoint.Options{Keep: 2})
	for i := range 4 {
		p.write("n.txt", fmt.Sprint(i))
		if _, err := c.Push(ctx(t), fmt.Sprint("turn ", i)); err != nil {
			t.Fatal(err)
		}
	}
	list, err := c.List(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].Label != "turn 3" || list[1].Label != "turn 2" {
		t.Errorf("List = %+v", list)
	}
	if err := c.Clear(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if list, err := c.List(ctx(t)); err != nil || len(list) != 0 {
		t.Errorf("after Clear: %+v, %v", list, err)
	}
}

// TestConcurrentSessions: two sessions of one project (two values, as
// two processes would have) push at the same time; the shared repository
// serves both and each stack holds its own.
func TestConcurrentSessions(t *testing.T) {
	needGit(t)
	p := newProject(t)
	for i := range 20 {
		p.write(fmt.Sprintf("f%d.txt", i), "x\n")
	}
	sessions := []*checkpoint.Checkpoints{p.open(checkpoint.Options{Stack: "a"}), p.open(checkpoint.Options{Stack: "b"})}
	var wg sync.WaitGroup
	errs := make(chan error, 2*5)
	for _, c := range sessions {
		wg.Go(func() {
			for i := range 5 {
				if _, err := c.Push(ctx(t), fmt.Sprint("push ", i)); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, c := range sessions {
		if list, err := c.List(ctx(t)); err != nil || len(list) != 5 {
			t.Errorf("List = %d checkpoints, %v; want 5", len(list), err)
		}
	}
}

// TestInvalidOptions: what Open refuses.
func TestInvalidOptions(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		name string
		opts checkpoint.Options
	}{
		{"relative root", checkpoint.Options{Root: "project", StateDir: dir}},
		{"missing root", checkpoint.Options{Root: filepath.Join(dir, "missing"), StateDir: dir}},
		{"root is a file", checkpoint.Options{Root: file, StateDir: dir}},
		{"no state dir", checkpoint.Options{Root: dir}},
		{"stack with a slash", checkpoint.Options{Root: dir, StateDir: dir, Stack: "a/b"}},
		{"stack with dots", checkpoint.Options{Root: dir, StateDir: dir, Stack: ".."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := checkpoint.Open(ctx(t), tt.opts); err == nil {
				t.Error("Open succeeded")
			}
		})
	}
}
