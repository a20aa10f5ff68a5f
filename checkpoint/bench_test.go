package checkpoint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// benchFiles is the size of the benchmark's workspace.
const benchFiles = 20_000

// benchWorkspace writes benchFiles small files in nested directories
// (20 × 20 directories of 50 files) below a new root.
func benchWorkspace(b *testing.B) *project {
	b.Helper()
	p := newProject(b)
	for i := range benchFiles {
		dir := fmt.Sprintf("d%02d/e%02d", i/1000, i/50%20)
		path := filepath.Join(p.root, dir, fmt.Sprintf("f%02d.go", i%50))
		if i%50 == 0 {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		content := fmt.Sprintf("package e%02d\n\n// File %d of the benchmark workspace.\nconst N%d = %d\n", i/50%20, i, i, i)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return p
}

// BenchmarkSnapshot20000Files measures a checkpoint of a 20,000-file
// workspace: the first one (a new shadow repository, every file read and
// stored), one taken by Push after a turn changed 10 files, and the end
// of a turn that changed 10 files (Finish), which each turn adds.
func BenchmarkSnapshot20000Files(b *testing.B) {
	needGit(b)
	p := benchWorkspace(b)
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			state := b.TempDir()
			b.StartTimer()
			c, err := checkpoint.Open(ctx(b), checkpoint.Options{Root: p.root, StateDir: state})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.Snapshot(ctx(b), "first"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("after-10-changes", func(b *testing.B) {
		c := p.open(checkpoint.Options{Keep: 10})
		if _, err := c.Push(ctx(b), "first"); err != nil {
			b.Fatal(err)
		}
		turn := 0
		for b.Loop() {
			b.StopTimer()
			turn++
			for i := range 10 {
				path := filepath.Join(p.root, fmt.Sprintf("d%02d/e%02d/f%02d.go", i, i, i))
				if err := os.WriteFile(path, fmt.Appendf(nil, "package x // turn %d\n", turn), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			if _, err := c.Push(ctx(b), fmt.Sprint("turn ", turn)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("finish-after-10-changes", func(b *testing.B) {
		c := p.open(checkpoint.Options{Keep: 10, Stack: "finish"})
		turn := 0
		for b.Loop() {
			b.StopTimer()
			turn++
			if _, err := c.Push(ctx(b), fmt.Sprint("turn ", turn)); err != nil {
				b.Fatal(err)
			}
			for i := range 10 {
				path := filepath.Join(p.root, fmt.Sprintf("d%02d/e%02d/f%02d.go", i, i, i))
				if err := os.WriteFile(path, fmt.Appendf(nil, "package x // finished turn %d\n", turn), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
			if _, err := c.Finish(ctx(b)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
