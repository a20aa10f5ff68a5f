package search_test

import (
	"context"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// TestCancellation cancels grep and glob mid-walk: the call ends promptly
// with ABORTED, ripgrep is killed and reaped, and no goroutine is left
// (goleak checks at exit).
func TestCancellation(t *testing.T) {
	dir := t.TempDir()
	genBigTree(t, dir, 8000)
	type call struct {
		tool string
		args map[string]any
	}
	calls := []call{
		{"grep", map[string]any{"pattern": `handler\(w`}},
		{"glob", map[string]any{"pattern": "**/*.go"}},
	}
	for _, be := range backends(t) {
		for _, c := range calls {
			if c.tool == "glob" && be.name == "ripgrep" {
				continue
			}
			t.Run(be.name+"/"+c.tool, func(t *testing.T) {
				f := newFixture(t, dir, be.opts)
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(3*time.Millisecond, cancel)
				start := time.Now()
				r := f.call(t, ctx, c.tool, c.args)
				if !r.IsError || r.Code() != registry.CodeAborted {
					t.Fatalf("got error=%v code=%q %q, want %s", r.IsError, r.Code(), presentation.JoinText(r.Content), registry.CodeAborted)
				}
				if elapsed := time.Since(start); elapsed > time.Second {
					t.Errorf("cancellation took %v", elapsed)
				}
			})
		}
	}
}
