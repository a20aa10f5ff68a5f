package search_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/search"
)

func TestGlob(t *testing.T) {
	type want struct {
		paths     []string
		total     int
		truncated bool
		code      string
		errHas    string
		textHas   string
	}
	other := t.TempDir()
	writeTree(t, other, map[string]string{"o/one.go": "", "o/two.txt": ""})
	cases := []struct {
		name string
		args map[string]any
		opts search.Options
		want want
	}{
		{
			name: "doublestar, newest first, gitignore and .git skipped, hidden kept",
			args: map[string]any{"pattern": "**/*.go"},
			want: want{paths: []string{"sub/deep/x.go", ".hidden/h.go", "a.go"}},
		},
		{
			name: "a pattern without a slash matches only at the top",
			args: map[string]any{"pattern": "*.go"},
			want: want{paths: []string{"a.go"}},
		},
		{
			name: "alternatives; nested .gitignore with a negation",
			args: map[string]any{"pattern": "sub/**/*.{md,txt}"},
			want: want{paths: []string{"sub/important.md", "sub/rootonly.txt"}},
		},
		{
			name: "negated pattern re-includes keep.log",
			args: map[string]any{"pattern": "*.log"},
			want: want{paths: []string{"keep.log"}},
		},
		{
			name: "path selects the directory; hidden files are listed, ignored ones not",
			args: map[string]any{"pattern": "**/*", "path": "sub/deep"},
			want: want{paths: []string{"sub/deep/x.go", "sub/deep/.ignore"}},
		},
		{
			name: "path outside cwd but absolute",
			args: map[string]any{"pattern": "**/*.go", "path": other},
			want: want{paths: []string{filepath.Join(other, "o", "one.go")}},
		},
		{
			name: "truncation keeps the newest",
			args: map[string]any{"pattern": "**/*.go"},
			opts: search.Options{MaxPaths: 2},
			want: want{paths: []string{"sub/deep/x.go", ".hidden/h.go"}, total: 3, truncated: true, textHas: "Found 3 files; showing the 2 most recently modified"},
		},
		{
			name: "no match suggests **/",
			args: map[string]any{"pattern": "*.md"},
			want: want{paths: []string{}, textHas: `use "**/*.md" to search subdirectories`},
		},
		{
			name: "path is a file",
			args: map[string]any{"pattern": "*.go", "path": "a.go"},
			want: want{code: search.CodeNotDirectory, errHas: "is a file, not a directory"},
		},
		{
			name: "missing path",
			args: map[string]any{"pattern": "*.go", "path": "missing"},
			want: want{code: search.CodeNotFound, errHas: "path not found: missing"},
		},
		{
			name: "invalid pattern",
			args: map[string]any{"pattern": "src/[a-"},
			want: want{code: search.CodeInvalidPattern, errHas: `invalid glob "src/[a-"`},
		},
	}
	dir := t.TempDir()
	writeTree(t, dir, grepTree)
	// Controlled modification times: x.go newest, then h.go, then a.go;
	// the rest share one older time, ordered by path.
	old := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(path, old, old)
		}
		return err
	})
	for name, age := range map[string]time.Duration{"sub/deep/x.go": 3, ".hidden/h.go": 2, "a.go": 1} {
		mt := old.Add(age * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, dir, tc.opts)
			r := f.call(t, context.Background(), "glob", tc.args)
			text := presentation.JoinText(r.Content)
			if tc.want.code != "" {
				if !r.IsError || r.Code() != tc.want.code || !strings.Contains(text, tc.want.errHas) {
					t.Fatalf("got error=%v code=%q %q, want code %q containing %q", r.IsError, r.Code(), text, tc.want.code, tc.want.errHas)
				}
				return
			}
			var v globValue
			decode(t, r, &v)
			if !slices.Equal(v.Paths, tc.want.paths) {
				t.Errorf("paths:\n got %q\nwant %q", v.Paths, tc.want.paths)
			}
			total := tc.want.total
			if total == 0 {
				total = len(tc.want.paths)
			}
			if v.Total != total || v.Truncated != tc.want.truncated {
				t.Errorf("total=%d truncated=%v, want %d %v", v.Total, v.Truncated, total, tc.want.truncated)
			}
			if !strings.Contains(text, tc.want.textHas) {
				t.Errorf("text %q lacks %q", text, tc.want.textHas)
			}
		})
	}
}

func TestGlobTiesByPath(t *testing.T) {
	f := newFixture(t, "", search.Options{})
	writeTree(t, f.dir, map[string]string{"b.txt": "", "a.txt": "", "c/a.txt": ""})
	mt := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range []string{"b.txt", "a.txt", "c/a.txt"} {
		os.Chtimes(filepath.Join(f.dir, p), mt, mt)
	}
	var v globValue
	decode(t, f.call(t, context.Background(), "glob", map[string]any{"pattern": "**/*.txt"}), &v)
	if want := []string{"a.txt", "b.txt", "c/a.txt"}; !slices.Equal(v.Paths, want) {
		t.Fatalf("got %q, want %q", v.Paths, want)
	}
}
