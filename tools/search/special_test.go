//go:build unix

package search_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/search"
)

// TestNamedPipesAreSkipped: grep and glob walk past a named pipe without
// opening it, and grep refuses one it is pointed at (issue 7 item 1).
func TestNamedPipesAreSkipped(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			f := newFixture(t, "", be.opts)
			writeTree(t, f.dir, map[string]string{"a.txt": "needle\n", "sub/b.txt": "needle\n"})
			fifo := filepath.Join(f.dir, "sub", "pipe.txt")
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			t.Cleanup(func() { unblockPipe(fifo) })
			var g grepValue
			decode(t, f.call(t, t.Context(), "grep", map[string]any{"pattern": "needle"}), &g)
			if want := []string{"a.txt:1:needle", "sub/b.txt:1:needle"}; !slices.Equal(g.lines(), want) {
				t.Errorf("grep found %q, want %q", g.lines(), want)
			}
			var gl globValue
			decode(t, f.call(t, t.Context(), "glob", map[string]any{"pattern": "**/*.txt"}), &gl)
			if slices.Contains(gl.Paths, "sub/pipe.txt") || len(gl.Paths) != 2 {
				t.Errorf("glob found %q", gl.Paths)
			}
			r := f.call(t, t.Context(), "grep", map[string]any{"pattern": "needle", "path": "sub/pipe.txt"})
			if msg := presentation.JoinText(r.Content); !r.IsError || r.Code() != search.CodeSearchFailed ||
				!strings.Contains(msg, "sub/pipe.txt is not a regular file (named pipe)") {
				t.Errorf("grep of the pipe: error=%v code=%q %q", r.IsError, r.Code(), msg)
			}
		})
	}
}

// unblockPipe frees whoever waits to open or read the named pipe at path:
// opening it read-write never blocks and counts as a writer.
func unblockPipe(path string) {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	}
}
