package checkpoint_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// TestFilesOverTheSizeLimit: a file over the limit is left out and
// reported when the checkpoint is taken, and a restore leaves it as it
// is and reports it, whether it was over the limit then or is now.
func TestFilesOverTheSizeLimit(t *testing.T) {
	needGit(t)
	const limit = 1000
	big := strings.Repeat("B", 2*limit)
	p := newProject(t)
	p.write("big.bin", big)
	p.write("grows.txt", "small\n")
	p.write("shrinks.txt", big)
	p.write("normal.txt", "normal\n")
	c := p.open(checkpoint.Options{MaxFileSize: limit})
	cp, err := c.Push(ctx(t), "before")
	if err != nil {
		t.Fatal(err)
	}
	want := []checkpoint.Skipped{
		{Path: p.path("big.bin"), Reason: checkpoint.ReasonTooLarge, Size: 2 * limit},
		{Path: p.path("shrinks.txt"), Reason: checkpoint.ReasonTooLarge, Size: 2 * limit},
	}
	if !slices.Equal(cp.Skipped, want) {
		t.Errorf("Skipped = %+v, want %+v", cp.Skipped, want)
	}
	p.write("big.bin", big+"more")
	p.write("grows.txt", big)
	p.write("shrinks.txt", "small now\n")
	p.write("normal.txt", "changed\n")
	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, []string{"normal.txt: changed\n -> normal\n"}) {
		t.Errorf("changes = %q", got)
	}
	for rel, content := range map[string]string{"big.bin": big + "more", "grows.txt": big, "shrinks.txt": "small now\n"} {
		if p.read(rel) != content {
			t.Errorf("%s was changed", rel)
		}
		if !slices.ContainsFunc(restored.Untouched, func(s checkpoint.Skipped) bool {
			return s.Path == p.path(rel) && s.Reason == checkpoint.ReasonTooLarge
		}) {
			t.Errorf("%s is not reported as untouched: %+v", rel, restored.Untouched)
		}
	}
}

// TestTooManyFiles: past MaxFiles, no checkpoint is taken.
func TestTooManyFiles(t *testing.T) {
	needGit(t)
	p := newProject(t)
	for i := range 10 {
		p.write(fmt.Sprintf("f%d", i), "x")
	}
	c := p.open(checkpoint.Options{MaxFiles: 5})
	_, err := c.Push(ctx(t), "too big")
	var tooMany *checkpoint.TooManyFilesError
	if !errors.Is(err, checkpoint.ErrTooManyFiles) || !errors.As(err, &tooMany) || tooMany.Files != 10 {
		t.Fatalf("Push = %v, want a TooManyFilesError for 10 files", err)
	}
	if list, _ := c.List(ctx(t)); len(list) != 0 {
		t.Errorf("a checkpoint was pushed: %+v", list)
	}
}

// TestUnreadableFile: a file the user may not read is left out and
// reported instead of failing the checkpoint.
func TestUnreadableFile(t *testing.T) {
	needGit(t)
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	p := newProject(t)
	p.write("ok.txt", "ok\n")
	p.writeMode("locked.txt", "locked\n", 0o000)
	c := p.open(checkpoint.Options{})
	cp, err := c.Push(ctx(t), "before")
	if err != nil {
		t.Fatal(err)
	}
	want := []checkpoint.Skipped{{Path: p.path("locked.txt"), Reason: checkpoint.ReasonUnreadable}}
	if !slices.Equal(cp.Skipped, want) {
		t.Errorf("Skipped = %+v, want %+v", cp.Skipped, want)
	}
	p.write("ok.txt", "changed\n")
	finish(t, c)
	if _, err := c.Undo(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if p.read("ok.txt") != "ok\n" {
		t.Errorf("ok.txt = %q", p.read("ok.txt"))
	}
	if info, err := os.Stat(p.path("locked.txt")); err != nil || info.Mode().Perm() != 0 {
		t.Errorf("locked.txt: %v, %v", info, err)
	}
}
