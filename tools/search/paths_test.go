package search_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search"
)

// TestPathsAreWhatTheCallTouches: glob's Paths include the directory it
// really walks, the pattern's fixed leading directories joined to path
// (issue 7 item 3: "../outdir/*" walked outside while Paths said nothing);
// grep's are its path, which include cannot widen.
func TestPathsAreWhatTheCallTouches(t *testing.T) {
	f := newFixture(t, "", search.Options{NoRipgrep: true})
	cwd, parent := f.dir, filepath.Dir(f.dir)
	tests := []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"glob", map[string]any{"pattern": "**/*.go"}, []string{cwd}},
		{"glob", map[string]any{"pattern": "src/**/*.go"}, []string{filepath.Join(cwd, "src")}},
		{"glob", map[string]any{"pattern": "../outdir/*"}, []string{filepath.Join(parent, "outdir")}},
		{"glob", map[string]any{"pattern": "/etc/host*"}, []string{"/etc"}},
		{"glob", map[string]any{"pattern": "sub/../../x/*"}, []string{filepath.Join(parent, "x")}},
		{"glob", map[string]any{"pattern": "../*"}, []string{parent}},
		{"glob", map[string]any{"pattern": "*.go", "path": "sub"}, []string{"sub", filepath.Join(cwd, "sub")}},
		{"glob", map[string]any{"pattern": "../../x/*", "path": "sub"}, []string{"sub", filepath.Join(parent, "x")}},
		{"glob", map[string]any{"pattern": "*", "path": "/tmp"}, []string{"/tmp", "/tmp"}},
		{"glob", map[string]any{"pattern": "[", "path": "sub"}, []string{"sub"}},
		{"glob", map[string]any{"pattern": "*", "path": "a\x00../.."}, []string{"a\x00../.."}},
		{"glob", map[string]any{"pattern": "a\x00../../x/*"}, []string{"a\x00../../x"}},
		{"grep", map[string]any{"pattern": "x"}, nil},
		{"grep", map[string]any{"pattern": "x", "path": "../other"}, []string{"../other"}},
		{"grep", map[string]any{"pattern": "x", "include": "../outdir/*.go"}, nil},
	}
	for _, tt := range tests {
		tool := f.reg.Get(tt.tool, nil)
		args, err := registry.ArgumentsOf(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := tool.Paths(args)
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("%s %q: Paths = %q (ok %v), want %q", tt.tool, tt.args, got, ok, tt.want)
		}
	}
}

// TestNULInPathIsRefused: a NUL byte in grep's path or glob's path or
// pattern is refused before anything is searched (issue 7 item 12).
func TestNULInPathIsRefused(t *testing.T) {
	f := newFixture(t, "", search.Options{NoRipgrep: true})
	writeTree(t, f.dir, map[string]string{"x/a.txt": "needle\n"})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"grep", map[string]any{"pattern": "needle", "path": "a\x00../x"}},
		{"glob", map[string]any{"pattern": "*", "path": "a\x00../x"}},
		{"glob", map[string]any{"pattern": "a\x00../x/*"}},
	} {
		r := f.call(t, t.Context(), c.tool, c.args)
		if !r.IsError || r.Code() != registry.CodeInvalidArgs || !strings.Contains(presentation.JoinText(r.Content), "contains a NUL byte") {
			t.Errorf("%s %q: error=%v code=%q %q", c.tool, c.args, r.IsError, r.Code(), presentation.JoinText(r.Content))
		}
	}
}
