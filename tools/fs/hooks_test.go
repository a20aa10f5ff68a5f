package fs_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

// hookLog records the hook calls the file tools make.
type hookLog struct {
	mu     sync.Mutex
	writes []string // "path\x00text"
	reads  []string
}

func (h *hookLog) options(report string) fs.Options {
	return fs.Options{
		AfterWrite: func(_ context.Context, path, text string) string {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.writes = append(h.writes, path+"\x00"+text)
			return report
		},
		AfterRead: func(_ context.Context, path, text string) {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.reads = append(h.reads, path+"\x00"+text)
		},
	}
}

func TestAfterWriteHook(t *testing.T) {
	const report = "gopls reports 1 new error in a.go after this change:\na.go:1:1: boom"
	tests := []struct {
		name      string
		setup     map[string]string // files before the call
		tool      string
		args      any
		wantWrite string // the text AfterWrite sees; "" when it must not be called
	}{
		{"write creates", nil, "write", fs.WriteArgs{FilePath: "a.go", Content: "package a\n"}, "package a\n"},
		{"write updates", map[string]string{"a.go": "package a\n"}, "write", fs.WriteArgs{FilePath: "a.go", Content: "package b\n"}, "package b\n"},
		{"write unchanged", map[string]string{"a.go": "package a\n"}, "write", fs.WriteArgs{FilePath: "a.go", Content: "package a\n"}, ""},
		{"edit keeps CRLF", map[string]string{"a.go": "package a\r\nvar x = 1\r\n"}, "edit",
			fs.EditArgs{FilePath: "a.go", OldString: "x = 1", NewString: "x = 2"}, "package a\r\nvar x = 2\r\n"},
		{"edit creates", nil, "edit", fs.EditArgs{FilePath: "a.go", NewString: "package a\n"}, "package a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h hookLog
			e := newEnv(t, h.options(report))
			for name, content := range tt.setup {
				e.put(name, content)
			}
			res := e.ok(tt.tool, tt.args)
			got := text(res)
			card, _ := e.presentResult(tt.tool, tt.args, res).(presentation.DiffResultView)
			if tt.wantWrite != "" && card.Notes != report {
				t.Errorf("the card's notes = %q, want the report", card.Notes)
			}
			if tt.wantWrite == "" {
				if len(h.writes) != 0 || strings.Contains(got, report) {
					t.Fatalf("AfterWrite ran for an unchanged file: %q; result %q", h.writes, got)
				}
				return
			}
			if want := []string{e.path("a.go") + "\x00" + tt.wantWrite}; len(h.writes) != 1 || h.writes[0] != want[0] {
				t.Fatalf("AfterWrite calls = %q, want %q", h.writes, want)
			}
			if !strings.HasSuffix(got, "\n\n"+report) {
				t.Fatalf("result = %q, want the report appended after a blank line", got)
			}
		})
	}
}

func TestAfterWriteHookEmptyReportAddsNothing(t *testing.T) {
	var h hookLog
	e := newEnv(t, h.options(""))
	if got := text(e.ok("write", fs.WriteArgs{FilePath: "a.go", Content: "package a\n"})); got != "Created a.go (1 line)." {
		t.Fatalf("result = %q", got)
	}
}

func TestAfterReadHook(t *testing.T) {
	var h hookLog
	e := newEnv(t, h.options(""))
	e.put("a.go", "package a\n\nvar x = 1\n")
	e.ok("read", fs.ReadArgs{FilePath: "a.go", Limit: 1})
	if want := e.path("a.go") + "\x00package a\n\nvar x = 1\n"; len(h.reads) != 1 || h.reads[0] != want {
		t.Fatalf("AfterRead calls = %q, want the whole file once", h.reads)
	}
}
