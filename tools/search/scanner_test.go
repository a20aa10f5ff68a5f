package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPrefilter(t *testing.T) {
	digits := []string{"(0)", "(1)", "(2)", "(3)", "(4)", "(5)", "(6)", "(7)", "(8)", "(9)"}
	cases := []struct {
		pattern string
		lits    []string // nil: no prefilter
		fold    bool
	}{
		{`needle`, []string{"needle"}, false},
		{`func\s+\w+Handler`, []string{"Handler"}, false},
		{`(foo|bar)baz+`, []string{"fooba", "barba"}, false},
		{`TODO|FIXME`, []string{"TODO", "FIXME"}, false},
		{`\(\d\)`, digits, false},
		{`(?i)NeedLe\(`, []string{"needle("}, true},
		{`Foo(?i:bar)`, []string{"foobar"}, true},
		{`(abc){2,}`, []string{"abc"}, false},
		{`(?i)é`, nil, false},
		{`a*b?`, nil, false},
		{`x|y`, nil, false},
		{`foo|\w+`, nil, false},
		{`[a-z]{3}`, nil, false},
	}
	for _, tc := range cases {
		m, err := compileMatcher(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		var lits []string
		fold := false
		if m.prefilter != nil {
			lits, fold = m.prefilter.lits, m.prefilter.fold
		}
		if !slices.Equal(lits, tc.lits) || fold != tc.fold {
			t.Errorf("%s: got %q fold=%v, want %q fold=%v", tc.pattern, lits, fold, tc.lits, tc.fold)
		}
	}
}

func TestScanFile(t *testing.T) {
	long := strings.Repeat("a", 3*chunkSize) + "needle"
	big := strings.Repeat("filler line\n", chunkSize/12+100) // crosses a chunk boundary
	cases := []struct {
		name    string
		pattern string
		content string
		maxSize int64
		want    []string
		err     error
	}{
		{"no final newline", "b$", "a\nb", 0, []string{"2:b"}, nil},
		{"empty file", "^", "", 0, nil, nil},
		{"empty last line not matched", "^$", "a\n\nb\n", 0, []string{"2:"}, nil},
		{"matches across a chunk boundary keep their numbers", "needle", big + "needle\n" + big + "x needle\n", 0,
			[]string{fmt.Sprintf("%d:needle", chunkSize/12+101), fmt.Sprintf("%d:x needle", 2*(chunkSize/12+100)+2)}, nil},
		{"a line longer than the buffer", "needle$", "x\n" + long + "\n", 0, []string{"2:" + long}, nil},
		{"binary in the first chunk", "a", "a\x00", 0, nil, errBinary},
		{"NUL in a later chunk stops the scan", "needle", "needle\n" + big + "\x00needle\n", 0, []string{"1:needle"}, nil},
		{"too large", "needle", "needle\n" + big, 100, nil, nil},
		{"(?i) literal prefilter", `(?i)NEEDLE`, "a\nNeEdLe\n", 0, []string{"2:NeEdLe"}, nil},
		{"(?i) k matches the Kelvin sign", `(?i)kelvin`, "x\n\u212aelvin\n", 0, []string{"2:\u212aelvin"}, nil},
		{"alternation prefilter", `TODO|FIXME`, "a\nx FIXME\nTODO y\nz\n", 0, []string{"2:x FIXME", "3:TODO y"}, nil},
		{"class expansion prefilter", `f\(\d\)`, "f(x)\nf(7)\n", 0, []string{"2:f(7)"}, nil},
		{"\\A anchors each line", `\Ab`, "a\nb\n", 0, []string{"2:b"}, nil},
		{"a block match spanning lines is confirmed per line", `a\s+b`, "a\nb\na b\n", 0, []string{"3:a b"}, nil},
	}
	dir := t.TempDir()
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, fmt.Sprint(i))
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := compileMatcher(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			err = newScanner(m).scanFile(context.Background(), path, tc.maxSize, func(line int, text []byte) {
				got = append(got, fmt.Sprintf("%d:%s", line, text))
			})
			if err != tc.err {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %.200q, want %.200q", got, tc.want)
			}
		})
	}
}

func TestCollectorKeepsFirstByPath(t *testing.T) {
	c := newCollector(3, 10)
	c.add([]lineMatch{{path: "/z", line: 1, text: "z"}})
	c.add([]lineMatch{{path: "/b", line: 2, text: "b2"}, {path: "/b", line: 9, text: "b9"}})
	c.add([]lineMatch{{path: "/a", line: 5, text: strings.Repeat("é", 8) + "\r"}})
	c.add(nil)
	kept, total, files := c.matches()
	var got []string
	for _, m := range kept {
		got = append(got, fmt.Sprintf("%s:%d:%s", m.path, m.line, m.text))
	}
	want := []string{"/a:5:ééééé…", "/b:2:b2", "/b:9:b9"}
	if !slices.Equal(got, want) || total != 4 || files != 3 {
		t.Fatalf("got %q total=%d files=%d, want %q 4 3", got, total, files, want)
	}
}
