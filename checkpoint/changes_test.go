package checkpoint_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// TestChangesBetweenCheckpoints: Changes compares two checkpoints, or a
// checkpoint and the workspace now, in either direction.
func TestChangesBetweenCheckpoints(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a.txt", "one\n")
	p.write("b.txt", "stays\n")
	c := p.open(checkpoint.Options{})
	first, err := c.Snapshot(ctx(t), "first")
	if err != nil {
		t.Fatal(err)
	}
	p.write("a.txt", "two\n")
	p.write("c.txt", "new\n")
	second, err := c.Snapshot(ctx(t), "second")
	if err != nil {
		t.Fatal(err)
	}
	p.remove("b.txt")
	tests := []struct {
		name, from, to string
		want           []string
	}{
		{"first to second", first.ID, second.ID, []string{"a.txt: one\n -> two\n", "c.txt: <absent> -> new\n"}},
		{"second to first", second.ID, first.ID, []string{"a.txt: two\n -> one\n", "c.txt: new\n -> <absent>"}},
		{"second to now", second.ID, "", []string{"b.txt: stays\n -> <absent>"}},
		{"itself", second.ID, second.ID, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := c.Changes(ctx(t), tt.from, tt.to)
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(p.root, changes); !slices.Equal(got, tt.want) {
				t.Errorf("Changes = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := c.Changes(ctx(t), "", second.ID); err == nil {
		t.Error("Changes from nothing succeeded")
	}
}

// TestRestoreLeavesWhatIsInTheWay: a file whose place the turn took with
// a directory holding ignored files stays away, and is reported as a
// conflict.
func TestRestoreLeavesWhatIsInTheWay(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write(".gitignore", "*.log\n")
	p.write("out", "a file\n")
	p.write("other.txt", "other\n")
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	p.remove("out")
	p.write("out/run.log", "ignored\n")
	p.write("other.txt", "changed\n")
	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, []string{"other.txt: changed\n -> other\n"}) {
		t.Errorf("changes = %q", got)
	}
	if want := []checkpoint.Skipped{{Path: p.path("out"), Reason: checkpoint.ReasonInTheWay}}; !slices.Equal(restored.Conflicts, want) {
		t.Errorf("Conflicts = %+v, want %+v", restored.Conflicts, want)
	}
	if p.read("out/run.log") != "ignored\n" {
		t.Error("the ignored file went")
	}
}
