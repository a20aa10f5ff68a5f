package fs_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/fs"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// benchLines returns n distinct, source-like lines of 64 bytes.
func benchLines(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%-63s\n", fmt.Sprintf("\tx%06d := compute(%d, \"some text\") // note", i, i*7))
	}
	return lines
}

// benchTool is one tool bound to a workspace in a temporary directory.
type benchTool struct {
	b    *testing.B
	dir  string
	tool *registry.Tool
	p    *pipeline.Pipeline
}

func newBenchTool(b *testing.B, name string, files workspace.FileSystem) *benchTool {
	dir, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	ws, err := workspace.New(dir, nil, files)
	if err != nil {
		b.Fatal(err)
	}
	tools, err := fs.Tools(ws, fs.Options{})
	if err != nil {
		b.Fatal(err)
	}
	reg := registry.New()
	bt := &benchTool{b: b, dir: dir, p: pipeline.New(reg, pipeline.Options{})}
	for _, t := range tools {
		reg.Register(nil, t)
		if t.Name() == name {
			bt.tool = t
		}
	}
	return bt
}

// call binds the arguments, runs the tool body and builds its outcome as a
// top-level call does
// (value snapshot, rendered text, diff cards as meta), without the
// pipeline's stages around it.
func (bt *benchTool) call(args registry.Arguments) registry.Output {
	call := registry.NewCall(registry.CallSpec{ID: "c", Name: bt.tool.Name(), Arguments: args})
	bound, err := bt.tool.Bind(args)
	if err != nil {
		bt.b.Fatal(err)
	}
	out, err := bound.Run(context.Background(), call)
	if err != nil {
		bt.b.Fatal(err)
	}
	return out
}

func mustArgs(b *testing.B, v any) registry.Arguments {
	a, err := registry.ArgumentsOf(v)
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkEdit1MB is one edit in the middle of a 1 MB file through the
// edit tool on a temporary directory, diff cards included. Iterations
// alternate between two edits so each one changes the file.
func BenchmarkEdit1MB(b *testing.B) {
	for _, fsys := range []struct {
		name  string
		files workspace.FileSystem
	}{{"disk", workspace.Local{}}, {"memory", newMemFS()}} {
		b.Run(fsys.name, func(b *testing.B) {
			bt := newBenchTool(b, "edit", fsys.files)
			content := strings.Join(benchLines(1<<20/64), "")
			if err := fsys.files.WriteFile(context.Background(), filepath.Join(bt.dir, "f.go"), []byte(content)); err != nil {
				b.Fatal(err)
			}
			there := mustArgs(b, fs.EditArgs{FilePath: "f.go", OldString: "x008000 := compute(56000", NewString: "y008000 := recompute(56000"})
			back := mustArgs(b, fs.EditArgs{FilePath: "f.go", OldString: "y008000 := recompute(56000", NewString: "x008000 := compute(56000"})
			b.SetBytes(int64(len(content)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				args := there
				if i%2 == 1 {
					args = back
				}
				i++
				out := bt.call(args)
				if i == 1 { // checked once, outside the measure's main cost
					if ds, ok := diffcard.FromMeta(out.Meta); !ok || len(ds) != 1 {
						b.Fatal("want one diff card")
					}
				}
			}
		})
	}
}

// BenchmarkWriteRewrite10k50 is a write that rewrites a 10,000-line file
// with 50 scattered changes, diff cards included.
func BenchmarkWriteRewrite10k50(b *testing.B) {
	lines := benchLines(10000)
	before := strings.Join(lines, "")
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range r.Perm(10000)[:50] {
		lines[k] = "\tchanged()\n"
	}
	benchWrite(b, before, strings.Join(lines, ""), 50)
}

// BenchmarkWriteEveryLine1MB is the worst case: a write that changes every
// line of a 1 MB file. The diff guard makes it one whole-file card.
func BenchmarkWriteEveryLine1MB(b *testing.B) {
	lines := benchLines(1 << 20 / 64)
	before := strings.Join(lines, "")
	for i, l := range lines {
		lines[i] = "\t// " + l
	}
	benchWrite(b, before, strings.Join(lines, ""), 1)
}

// benchWrite alternates writes of a and b to one file, checking the number
// of diff cards each gives.
func benchWrite(b *testing.B, one, other string, cards int) {
	for _, fsys := range []struct {
		name  string
		files workspace.FileSystem
	}{{"disk", workspace.Local{}}, {"memory", newMemFS()}} {
		b.Run(fsys.name, func(b *testing.B) {
			bt := newBenchTool(b, "write", fsys.files)
			if err := fsys.files.WriteFile(context.Background(), filepath.Join(bt.dir, "f.go"), []byte(one)); err != nil {
				b.Fatal(err)
			}
			toOther := mustArgs(b, fs.WriteArgs{FilePath: "f.go", Content: other})
			toOne := mustArgs(b, fs.WriteArgs{FilePath: "f.go", Content: one})
			b.SetBytes(int64(len(one)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				args := toOther
				if i%2 == 1 {
					args = toOne
				}
				i++
				out := bt.call(args)
				if i == 1 { // checked once, outside the measure's main cost
					if ds, ok := diffcard.FromMeta(out.Meta); !ok || len(ds) > cards || (cards == 1 && len(ds) != 1) {
						b.Fatalf("got %d diff cards, want %d", len(ds), cards)
					}
				}
			}
		})
	}
}

// memFS is an in-memory FileSystem, to measure the tools without the disk.
// It keeps the slices it is given and hands out the ones it holds (the
// tools neither change nor keep them), so it costs no copying.
type memFS struct{ files map[string][]byte }

func newMemFS() *memFS { return &memFS{files: map[string][]byte{}} }

func (m *memFS) ReadFile(_ context.Context, path string) ([]byte, error) {
	data, ok := m.files[path]
	if !ok {
		return nil, &os.PathError{Op: "open", Path: path, Err: os.ErrNotExist}
	}
	return data, nil
}

func (m *memFS) WriteFile(_ context.Context, path string, data []byte) error {
	m.files[path] = data
	return nil
}

func (m *memFS) Stat(_ context.Context, path string) (os.FileInfo, error) {
	data, ok := m.files[path]
	if !ok {
		return nil, &os.PathError{Op: "stat", Path: path, Err: os.ErrNotExist}
	}
	return memInfo{name: filepath.Base(path), size: int64(len(data))}, nil
}
