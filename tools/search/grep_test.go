package search_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/search"
)

// grepTree is the tree most grep cases search: a git repository with a
// root and a nested .gitignore (with negations), an info/exclude, an
// .ignore file, hidden
// entries, a binary file and CRLF text.
var grepTree = map[string]string{
	".git/HEAD":         "ref: refs/heads/main needle\n",
	".git/info/exclude": "excluded.txt\n",
	".gitignore":        "*.log\n!keep.log\nbuild/\n/rootonly.txt\n",
	"a.go":              "package a\n\nfunc needle() {}\n",
	"b.ts":              "const needle = 1;\n",
	"c.tsx":             "<Needle/>\nneedle\n",
	"keep.log":          "needle kept\n",
	"drop.log":          "needle dropped\n",
	"build/out.go":      "needle built\n",
	"rootonly.txt":      "needle at root\n",
	"sub/rootonly.txt":  "needle below\n",
	"sub/.gitignore":    "*.md\n!important.md\n",
	"sub/notes.md":      "needle notes\n",
	"sub/important.md":  "needle important\n",
	"sub/deep/x.go":     "x := needle\n",
	".hidden/h.go":      "needle hidden\n",
	".env":              "needle=1\n",
	"bin.dat":           "needle\x00\x01\x02",
	"excluded.txt":      "needle excluded\n",
	"crlf.txt":          "needle\r\nother\r\n",
	"sub/deep/.ignore":  "*.txt\n",
	"sub/deep/y.txt":    "needle in .ignore\n",
}

func TestGrep(t *testing.T) {
	type want struct {
		lines     []string
		code      string // error code when the call fails
		errHas    string
		total     int // 0: len(lines)
		truncated bool
	}
	cases := []struct {
		name string
		args map[string]any
		opts search.Options
		want want
	}{
		{
			name: "gitignore nested and negated, hidden, binary and exclude skipped",
			args: map[string]any{"pattern": "needle"},
			want: want{lines: []string{
				"a.go:3:func needle() {}",
				"b.ts:1:const needle = 1;",
				"c.tsx:2:needle",
				"crlf.txt:1:needle",
				"keep.log:1:needle kept",
				"sub/deep/x.go:1:x := needle",
				"sub/important.md:1:needle important",
				"sub/rootonly.txt:1:needle below",
			}},
		},
		{
			name: "include filter",
			args: map[string]any{"pattern": "needle", "include": "*.go"},
			want: want{lines: []string{"a.go:3:func needle() {}", "sub/deep/x.go:1:x := needle"}},
		},
		{
			name: "include with alternatives",
			args: map[string]any{"pattern": "(?i)needle", "include": "*.{ts,tsx}"},
			want: want{lines: []string{"b.ts:1:const needle = 1;", "c.tsx:1:<Needle/>", "c.tsx:2:needle"}},
		},
		{
			name: "include naming ignored files searches them, as ripgrep's --glob does",
			args: map[string]any{"pattern": "needle", "include": "*.log"},
			want: want{lines: []string{"drop.log:1:needle dropped", "keep.log:1:needle kept"}},
		},
		{
			name: "negated include",
			args: map[string]any{"pattern": "needle", "include": "!*.{go,txt}"},
			want: want{lines: []string{"b.ts:1:const needle = 1;", "c.tsx:2:needle", "keep.log:1:needle kept", "sub/important.md:1:needle important"}},
		},
		{
			name: "path as a file is searched even when ignored",
			args: map[string]any{"pattern": "needle", "path": "drop.log"},
			want: want{lines: []string{"drop.log:1:needle dropped"}},
		},
		{
			name: "path naming a hidden directory",
			args: map[string]any{"pattern": "needle", "path": ".hidden"},
			want: want{lines: []string{".hidden/h.go:1:needle hidden"}},
		},
		{
			name: "path naming a subdirectory keeps the parent's rules",
			args: map[string]any{"pattern": "needle", "path": "sub"},
			want: want{lines: []string{"sub/deep/x.go:1:x := needle", "sub/important.md:1:needle important", "sub/rootonly.txt:1:needle below"}},
		},
		{
			name: "anchors are per line; CRLF keeps its \\r",
			args: map[string]any{"pattern": `^x := \w+$|^needle\r?$`},
			want: want{lines: []string{"c.tsx:2:needle", "crlf.txt:1:needle", "sub/deep/x.go:1:x := needle"}},
		},
		{
			name: "a pattern ripgrep refuses (it can match \\n) gets the built-in answer",
			args: map[string]any{"pattern": `needle kept|\n`},
			want: want{lines: []string{"keep.log:1:needle kept"}},
		},
		{
			name: "a pattern starting with a dash",
			args: map[string]any{"pattern": "-x", "path": "sub"},
			want: want{},
		},
		{
			name: "truncation keeps the first matches by path and line",
			args: map[string]any{"pattern": "needle"},
			opts: search.Options{MaxMatches: 3},
			want: want{lines: []string{"a.go:3:func needle() {}", "b.ts:1:const needle = 1;", "c.tsx:2:needle"}, total: 8, truncated: true},
		},
		{
			name: "long lines are cut",
			args: map[string]any{"pattern": "const", "path": "b.ts"},
			opts: search.Options{MaxLineLength: 8},
			want: want{lines: []string{"b.ts:1:const ne…"}},
		},
		{
			name: "no match",
			args: map[string]any{"pattern": "absent"},
			want: want{},
		},
		{
			name: "invalid regex",
			args: map[string]any{"pattern": "func (", "include": "*.go"},
			want: want{code: search.CodeInvalidPattern, errHas: `invalid regular expression "func ("`},
		},
		{
			name: "missing path",
			args: map[string]any{"pattern": "x", "path": "nope/missing.go"},
			want: want{code: search.CodeNotFound, errHas: "path not found: nope/missing.go"},
		},
		{
			name: "binary file named by path",
			args: map[string]any{"pattern": "needle", "path": "bin.dat"},
			want: want{code: search.CodeBinaryFile, errHas: "bin.dat is a binary file"},
		},
		{
			name: "empty pattern",
			args: map[string]any{"pattern": ""},
			want: want{code: search.CodeInvalidPattern, errHas: "pattern is empty"},
		},
	}
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, grepTree)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					opts := tc.opts
					opts.Ripgrep, opts.NoRipgrep = be.opts.Ripgrep, be.opts.NoRipgrep
					f := newFixture(t, dir, opts)
					r := f.call(t, context.Background(), "grep", tc.args)
					text := presentation.JoinText(r.Content)
					if tc.want.code != "" {
						if !r.IsError || r.Code() != tc.want.code || !strings.Contains(text, tc.want.errHas) {
							t.Fatalf("got error=%v code=%q %q, want code %q containing %q", r.IsError, r.Code(), text, tc.want.code, tc.want.errHas)
						}
						return
					}
					var v grepValue
					decode(t, r, &v)
					if got := v.lines(); !slices.Equal(got, tc.want.lines) {
						t.Errorf("lines:\n got %q\nwant %q", got, tc.want.lines)
					}
					total := tc.want.total
					if total == 0 {
						total = len(tc.want.lines)
					}
					if v.Total != total || v.Truncated != tc.want.truncated {
						t.Errorf("total=%d truncated=%v, want %d %v", v.Total, v.Truncated, total, tc.want.truncated)
					}
					if tc.want.truncated && !strings.Contains(text, "narrow the search") {
						t.Errorf("truncated result without a note: %q", text)
					}
				})
			}
		})
	}
}

func TestGrepOutsideCwd(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			other := t.TempDir()
			writeTree(t, other, map[string]string{"lib/x.go": "needle\n"})
			f := newFixture(t, "", be.opts)
			r := f.call(t, context.Background(), "grep", map[string]any{"pattern": "needle", "path": other})
			var v grepValue
			decode(t, r, &v)
			want := []string{filepath.Join(other, "lib", "x.go") + ":1:needle"}
			if got := v.lines(); !slices.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

func TestGrepRender(t *testing.T) {
	f := newFixture(t, "", search.Options{NoRipgrep: true, MaxMatches: 2})
	writeTree(t, f.dir, map[string]string{"a.go": "x1\nx2\n", "b/c.go": "x3\n"})
	r := f.call(t, context.Background(), "grep", map[string]any{"pattern": "x"})
	got := presentation.JoinText(r.Content)
	want := `Found 3 matches in 2 files. Showing the first 2, by path and line: narrow the search with a more specific pattern, a path to a subdirectory or file, or an include filter such as "*.go".

a.go:
  1: x1
  2: x2`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	r = f.call(t, context.Background(), "grep", map[string]any{"pattern": "zzz", "include": "*.go"})
	if got, want := presentation.JoinText(r.Content), `No matches for "zzz" in the working directory (files matching *.go).`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGrepSymlinksNotFollowed(t *testing.T) {
	for _, be := range backends(t) {
		t.Run(be.name, func(t *testing.T) {
			f := newFixture(t, "", be.opts)
			outside := t.TempDir()
			writeTree(t, outside, map[string]string{"secret.txt": "needle\n"})
			writeTree(t, f.dir, map[string]string{"real.txt": "needle\n"})
			if err := os.Symlink(outside, filepath.Join(f.dir, "linkdir")); err != nil {
				t.Skip(err)
			}
			if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(f.dir, "link.txt")); err != nil {
				t.Fatal(err)
			}
			var v grepValue
			decode(t, f.call(t, context.Background(), "grep", map[string]any{"pattern": "needle"}), &v)
			if got, want := v.lines(), []string{"real.txt:1:needle"}; !slices.Equal(got, want) {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}
