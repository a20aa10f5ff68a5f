package checkpoint_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// conflictsOf returns the conflicts of restored by path relative to the
// project's root.
func conflictsOf(p *project, restored checkpoint.Restored) map[string]checkpoint.Reason {
	out := map[string]checkpoint.Reason{}
	for _, c := range restored.Conflicts {
		out[rel(p, c.Path)] = c.Reason
	}
	return out
}

// push starts a turn on u, failing the test when that fails.
func push(t *testing.T, u checkpoint.Undoer, label string) {
	t.Helper()
	if _, err := u.Push(ctx(t), label); err != nil {
		t.Fatal(err)
	}
}

// undo undoes the last turn of u, failing the test when that fails.
func undo(t *testing.T, u checkpoint.Undoer) checkpoint.Restored {
	t.Helper()
	restored, err := u.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	return restored
}

// TestOtherSessionsFilesKept: what another session of the project
// creates while this session's turn runs, or after it, survives this
// session's /undo; a session that stopped during its turn does not stand
// in the way of the others.
func TestOtherSessionsFilesKept(t *testing.T) {
	needGit(t)
	tests := []struct {
		name string
		// run plays the two sessions: mine's turn changes a.txt, theirs
		// writes theirs.txt.
		run           func(t *testing.T, p *project, mine, theirs *checkpoint.Checkpoints)
		wantA         string // a.txt after my undo
		wantConflicts map[string]checkpoint.Reason
	}{
		{"their turn starts and ends during mine", func(t *testing.T, p *project, mine, theirs *checkpoint.Checkpoints) {
			push(t, mine, "mine")
			p.write("a.txt", "a1\n")
			push(t, theirs, "theirs")
			p.write("theirs.txt", "their session's\n")
			finish(t, theirs)
			finish(t, mine)
		}, "a0\n", map[string]checkpoint.Reason{"theirs.txt": checkpoint.ReasonOtherSession}},
		{"their turn runs before mine starts and after it ends", func(t *testing.T, p *project, mine, theirs *checkpoint.Checkpoints) {
			push(t, theirs, "theirs")
			push(t, mine, "mine")
			p.write("a.txt", "a1\n")
			p.write("theirs.txt", "their session's\n")
			finish(t, mine)
			finish(t, theirs)
		},
			// Their turn ran all along: whose change a.txt is, is not
			// known either.
			"a1\n", map[string]checkpoint.Reason{"a.txt": checkpoint.ReasonOtherSession, "theirs.txt": checkpoint.ReasonOtherSession}},
		{"their turn comes after mine", func(t *testing.T, p *project, mine, theirs *checkpoint.Checkpoints) {
			push(t, mine, "mine")
			p.write("a.txt", "a1\n")
			finish(t, mine)
			push(t, theirs, "theirs")
			p.write("theirs.txt", "their session's\n")
			finish(t, theirs)
		}, "a0\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			p.write("a.txt", "a0\n")
			mine, theirs := p.open(checkpoint.Options{Stack: "mine"}), p.open(checkpoint.Options{Stack: "theirs"})
			tt.run(t, p, mine, theirs)
			restored := undo(t, mine)
			if got := p.read("a.txt"); got != tt.wantA {
				t.Errorf("a.txt = %q, want %q", got, tt.wantA)
			}
			if got := p.read("theirs.txt"); got != "their session's\n" {
				t.Errorf("theirs.txt = %q, want it kept", got)
			}
			if got := conflictsOf(p, restored); !maps.Equal(got, tt.wantConflicts) && len(got)+len(tt.wantConflicts) > 0 {
				t.Errorf("conflicts = %q, want %q", got, tt.wantConflicts)
			}
			// Their own undo takes back what their turn did, now that
			// mine is gone.
			undo(t, theirs)
			if got := p.read("theirs.txt"); got != "<absent>" {
				t.Errorf("their undo left theirs.txt: %q", got)
			}
		})
	}

	t.Run("a session that stopped during its turn", func(t *testing.T) {
		p := newProject(t)
		p.write("a.txt", "a0\n")
		mine, stopped := p.open(checkpoint.Options{Stack: "mine"}), p.open(checkpoint.Options{Stack: "stopped"})
		push(t, stopped, "never finished")
		stopped.Close() // its process is gone
		push(t, mine, "mine")
		p.write("a.txt", "a1\n")
		finish(t, mine)
		restored := undo(t, mine)
		if got := p.read("a.txt"); got != "a0\n" || len(restored.Conflicts) != 0 {
			t.Errorf("a.txt = %q, conflicts %+v; want it reverted, none", got, restored.Conflicts)
		}
	})
}

// TestTwoTurnsUndoneInARow: each undo compares with the end of its own
// turn. What the user changed between the turns or after them stays, and
// a conflict of the later turn stays one for the earlier turn.
func TestTwoTurnsUndoneInARow(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("story.txt", "v0\n")
	p.write("shared.txt", "s0\n")
	p.write("user.txt", "u0\n")
	c := p.open(checkpoint.Options{})

	push(t, c, "turn 1")
	p.write("story.txt", "v1\n")
	p.write("turn1.txt", "made by turn 1\n")
	p.write("between.txt", "t1\n")
	p.write("shared.txt", "s1\n")
	finish(t, c)
	p.write("between.txt", "the user's, between the turns\n")
	p.write("user.txt", "u1 by the user\n")

	push(t, c, "turn 2")
	p.write("story.txt", "v2\n")
	p.write("turn2.txt", "made by turn 2\n")
	p.write("shared.txt", "s2\n")
	finish(t, c)
	p.write("shared.txt", "the user's, after turn 2\n")
	p.write("late.txt", "created after both turns\n")

	second := undo(t, c)
	if got, want := conflictsOf(p, second), map[string]checkpoint.Reason{"shared.txt": checkpoint.ReasonChangedSince}; !maps.Equal(got, want) {
		t.Errorf("undo of turn 2: conflicts %q, want %q", got, want)
	}
	first := undo(t, c)
	want := map[string]checkpoint.Reason{
		"between.txt": checkpoint.ReasonChangedSince, // the user's edit between the turns
		"shared.txt":  checkpoint.ReasonChangedSince, // still the user's
	}
	if got := conflictsOf(p, first); !maps.Equal(got, want) {
		t.Errorf("undo of turn 1: conflicts %q, want %q", got, want)
	}
	for rel, want := range map[string]string{
		"story.txt":   "v0\n",
		"turn1.txt":   "<absent>",
		"turn2.txt":   "<absent>",
		"between.txt": "the user's, between the turns\n",
		"user.txt":    "u1 by the user\n",
		"shared.txt":  "the user's, after turn 2\n",
		"late.txt":    "created after both turns\n",
	} {
		if got := p.read(rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	if _, err := c.Undo(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("a third undo: %v, want ErrNothingToUndo", err)
	}
}

// TestUnfinishedTurn: a turn whose end was never recorded (dsh-acp
// stopped during it) is undone without changing any file: what differs
// from its start is listed, the turn is dropped, and the next undo goes
// one turn further back.
func TestUnfinishedTurn(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a.txt", "a0\n")
	before := p.open(checkpoint.Options{Stack: "s"})
	push(t, before, "turn 1")
	p.write("a.txt", "a1\n")
	finish(t, before)
	push(t, before, "turn 2")
	p.write("b.txt", "by turn 2, or by the user after the crash\n")
	before.Close() // the process stops

	after := p.open(checkpoint.Options{Stack: "s"})
	restored := undo(t, after)
	if restored.Note != checkpoint.NoEndNote || len(restored.Changes) != 0 {
		t.Errorf("undo of the unfinished turn: note %q, changes %q", restored.Note, summary(p.root, restored.Changes))
	}
	if got, want := conflictsOf(p, restored), map[string]checkpoint.Reason{"b.txt": checkpoint.ReasonNoEnd}; !maps.Equal(got, want) {
		t.Errorf("conflicts %q, want %q", got, want)
	}
	if got := p.read("b.txt"); got == "<absent>" {
		t.Error("b.txt was removed")
	}
	undo(t, after)
	if got := p.read("a.txt"); got != "a0\n" {
		t.Errorf("the next undo: a.txt = %q, want a0", got)
	}
}

// TestFinishKeepsTheFirstEnd: a second Finish of a turn takes nothing, so
// a change made after the turn ended never passes for the turn's.
func TestFinishKeepsTheFirstEnd(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a.txt", "a0\n")
	c := p.open(checkpoint.Options{})
	push(t, c, "turn")
	p.write("a.txt", "a1\n")
	first, err := c.Finish(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	p.write("mine.txt", "the user's\n")
	again, err := c.Finish(ctx(t))
	if err != nil || again.ID != first.ID {
		t.Errorf("second Finish = %+v, %v; want the first end %s", again, err, first.ID)
	}
	undo(t, c)
	if p.read("mine.txt") != "the user's\n" || p.read("a.txt") != "a0\n" {
		t.Errorf("mine.txt = %q, a.txt = %q", p.read("mine.txt"), p.read("a.txt"))
	}
	if _, err := c.Finish(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("Finish with no turn: %v, want ErrNothingToUndo", err)
	}
}

// TestBrokenMetadata: a file of the repository directory that a full disk
// or a crash left empty or cut short does not stop checkpoints: the next
// session of the project takes, finishes and undoes its turns.
func TestBrokenMetadata(t *testing.T) {
	needGit(t)
	tests := []struct {
		name string
		file string // relative to checkpoints/<hash>
		data string
	}{
		{"empty root", "root", ""},
		{"root cut short", "root", "relative/half"},
		{"root is a directory", "root", "<dir>"},
		{"empty HEAD", "git/HEAD", ""},
		{"empty index", "git/index", ""},
		{"index cut short", "git/index", "DIRC\x00\x00"},
		{"empty info/exclude", "git/info/exclude", ""},
		{"empty stack ref", "git/refs/dsh/stacks/s/1", ""},
		{"empty end ref", "git/refs/dsh/stacks/s/1-end", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			p.write("a.txt", "a0\n")
			first := p.open(checkpoint.Options{Stack: "s"})
			push(t, first, "turn 1")
			p.write("a.txt", "a1\n")
			finish(t, first)
			first.Close()
			dirs, _ := filepath.Glob(filepath.Join(p.state, "checkpoints", "*"))
			if len(dirs) != 1 {
				t.Fatalf("repository directories: %q", dirs)
			}
			path := filepath.Join(dirs[0], filepath.FromSlash(tt.file))
			if tt.data == "<dir>" {
				os.Remove(path)
				if err := os.Mkdir(path, 0o700); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}

			next, err := checkpoint.Open(ctx(t), checkpoint.Options{Root: p.root, StateDir: p.state, Stack: "s"})
			if err != nil {
				t.Fatalf("Open after the %s: %v", tt.name, err)
			}
			push(t, next, "turn 2")
			p.write("b.txt", "made by turn 2\n")
			finish(t, next)
			restored := undo(t, next)
			if got := summary(p.root, restored.Changes); !slices.Equal(got, []string{"b.txt: made by turn 2\n -> <absent>"}) {
				t.Errorf("undo of turn 2 = %q", got)
			}
		})
	}
}
