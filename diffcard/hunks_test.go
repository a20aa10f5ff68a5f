package diffcard

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

func ptr(s string) *string { return &s }

// numbered returns "line1\n" … "lineN\n".
func numbered(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("line%d\n", i+1)
	}
	return lines
}

// with returns lines with the 1-based entries in repl replaced, joined.
func with(lines []string, repl map[int]string) string {
	out := append([]string(nil), lines...)
	for k, v := range repl {
		out[k-1] = v
	}
	return strings.Join(out, "")
}

func TestHunks(t *testing.T) {
	eight := numbered(8)
	twenty := numbered(20)
	tests := []struct {
		name          string
		before, after string
		want          []presentation.FileDiff
	}{
		{
			name:   "F1 single-line change has 3 lines of context (lines 1-7)",
			before: with(eight, nil), after: with(eight, map[int]string{4: "LINE4\n"}),
			want: []presentation.FileDiff{{Path: "p", Line: 4,
				OldText: ptr("line1\nline2\nline3\nline4\nline5\nline6\nline7\n"),
				NewText: "line1\nline2\nline3\nLINE4\nline5\nline6\nline7\n"}},
		},
		{
			name:   "F2 scattered replace_all at lines 3 and 16 of 20 gives 2 diffs",
			before: with(twenty, nil), after: with(twenty, map[int]string{3: "X\n", 16: "X\n"}),
			want: []presentation.FileDiff{
				{Path: "p", Line: 3, OldText: ptr("line1\nline2\nline3\nline4\nline5\nline6\n"), NewText: "line1\nline2\nX\nline4\nline5\nline6\n"},
				{Path: "p", Line: 16, OldText: ptr("line13\nline14\nline15\nline16\nline17\nline18\nline19\n"), NewText: "line13\nline14\nline15\nX\nline17\nline18\nline19\n"},
			},
		},
		{name: "F3 identical text gives nil", before: "a\nb\n", after: "a\nb\n", want: nil},
		{name: "F3 identical empty texts give nil", before: "", after: "", want: nil},
		{
			name: "F4 insertion into empty text has nil OldText", before: "", after: "brand new\n",
			want: []presentation.FileDiff{{Path: "p", Line: 1, NewText: "brand new\n"}},
		},
		{
			name: "F5 deleting the whole file gives empty NewText", before: "gone\n", after: "",
			want: []presentation.FileDiff{{Path: "p", Line: 1, OldText: ptr("gone\n"), NewText: ""}},
		},
		{
			name: "F6 lines without a final newline stay without one", before: "x", after: "y",
			want: []presentation.FileDiff{{Path: "p", Line: 1, OldText: ptr("x"), NewText: "y"}},
		},
		{
			name:   "F7 context is 3: 7 lines per side in the middle of a long file",
			before: with(twenty, nil), after: with(twenty, map[int]string{10: "ten\n"}),
			want: []presentation.FileDiff{{Path: "p", Line: 10,
				OldText: ptr("line7\nline8\nline9\nline10\nline11\nline12\nline13\n"),
				NewText: "line7\nline8\nline9\nten\nline11\nline12\nline13\n"}},
		},
		{
			name: "F22 edit meta hunk", before: "a\nb\nc\nOLD\nd\ne\nf\n", after: "a\nb\nc\nNEW\nd\ne\nf\n",
			want: []presentation.FileDiff{{Path: "p", Line: 4, OldText: ptr("a\nb\nc\nOLD\nd\ne\nf\n"), NewText: "a\nb\nc\nNEW\nd\ne\nf\n"}},
		},
		{
			name:   "changes 6 equal lines apart share a hunk (windows touch)",
			before: with(twenty, nil), after: with(twenty, map[int]string{5: "X\n", 12: "Y\n"}),
			want: []presentation.FileDiff{{Path: "p", Line: 5,
				OldText: ptr(strings.Join(twenty[1:15], "")),
				NewText: with(twenty[1:15], map[int]string{4: "X\n", 11: "Y\n"})}},
		},
		{
			name:   "changes 7 equal lines apart get separate hunks",
			before: with(twenty, nil), after: with(twenty, map[int]string{5: "X\n", 13: "Y\n"}),
			want: []presentation.FileDiff{
				{Path: "p", Line: 5, OldText: ptr("line2\nline3\nline4\nline5\nline6\nline7\nline8\n"), NewText: "line2\nline3\nline4\nX\nline6\nline7\nline8\n"},
				{Path: "p", Line: 13, OldText: ptr("line10\nline11\nline12\nline13\nline14\nline15\nline16\n"), NewText: "line10\nline11\nline12\nY\nline14\nline15\nline16\n"},
			},
		},
		{
			name: "CRLF lines keep their \\r\\n", before: "a\r\nb\r\nc\r\n", after: "a\r\nB\r\nc\r\n",
			want: []presentation.FileDiff{{Path: "p", Line: 2, OldText: ptr("a\r\nb\r\nc\r\n"), NewText: "a\r\nB\r\nc\r\n"}},
		},
		{
			name: "CRLF to LF is a change of every line", before: "a\r\nb\r\n", after: "a\nb\n",
			want: []presentation.FileDiff{{Path: "p", Line: 1, OldText: ptr("a\r\nb\r\n"), NewText: "a\nb\n"}},
		},
		{
			name: "missing final newline added: only the last line differs", before: "a\nb", after: "a\nb\n",
			want: []presentation.FileDiff{{Path: "p", Line: 2, OldText: ptr("a\nb"), NewText: "a\nb\n"}},
		},
		{
			name: "final newline removed", before: "a\nb\n", after: "a\nb",
			want: []presentation.FileDiff{{Path: "p", Line: 2, OldText: ptr("a\nb\n"), NewText: "a\nb"}},
		},
		{
			name: "append after a last line without newline", before: "a\nb", after: "a\nb\nc",
			want: []presentation.FileDiff{{Path: "p", Line: 2, OldText: ptr("a\nb"), NewText: "a\nb\nc"}},
		},
		{
			name: "a change far from a last line without newline keeps every break", before: with(eight, map[int]string{8: "line8"}), after: with(eight, map[int]string{2: "two\n", 8: "line8"}),
			want: []presentation.FileDiff{{Path: "p", Line: 2, OldText: ptr("line1\nline2\nline3\nline4\nline5\n"), NewText: "line1\ntwo\nline3\nline4\nline5\n"}},
		},
		{
			name: "pure insertion in the middle keeps context on both sides", before: "1\n2\n3\n4\n", after: "1\n2\nnew\n3\n4\n",
			want: []presentation.FileDiff{{Path: "p", Line: 3, OldText: ptr("1\n2\n3\n4\n"), NewText: "1\n2\nnew\n3\n4\n"}},
		},
		{
			name: "blank old line is an old side, not nil", before: "\n", after: "x\n",
			want: []presentation.FileDiff{{Path: "p", Line: 1, OldText: ptr("\n"), NewText: "x\n"}},
		},
		{
			name: "whole-file replacement", before: "a\nb\nc\n", after: "x\ny\n",
			want: []presentation.FileDiff{{Path: "p", Line: 1, OldText: ptr("a\nb\nc\n"), NewText: "x\ny\n"}},
		},
		{
			name: "inserted repeated line slides down", before: "a\nx\nx\nb\n", after: "a\nx\nx\nx\nb\n",
			want: []presentation.FileDiff{{Path: "p", Line: 4, OldText: ptr("a\nx\nx\nb\n"), NewText: "a\nx\nx\nx\nb\n"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Hunks("p", tc.before, tc.after)
			if !equalDiffs(got, tc.want) {
				t.Errorf("Hunks =\n%s\nwant\n%s", Meta(got), Meta(tc.want))
			}
			checkRoundTrip(t, tc.before, tc.after)
		})
	}
}

func TestContextIsThree(t *testing.T) { // F7
	if Context != 3 {
		t.Fatalf("Context = %d, want 3", Context)
	}
}

// TestGuard checks that pathological rewrites become one whole-file diff
// that still applies, and that ordinary ones do not.
func TestGuard(t *testing.T) {
	lines := benchLines(20000)
	before := strings.Join(lines, "")
	everyLine := make([]string, len(lines))
	reversed := make([]string, len(lines))
	for i, l := range lines {
		everyLine[i] = "// " + l
		reversed[len(lines)-1-i] = l
	}
	few := append([]string(nil), lines...)
	for i := 0; i < len(few); i += 1000 {
		few[i] = "changed\n"
	}
	tests := []struct {
		name      string
		after     string
		wholeFile bool
	}{
		{"every line changed (lower bound trips)", strings.Join(everyLine, ""), true},
		{"lines reversed (bounded Myers trips)", strings.Join(reversed, ""), true},
		{"20 scattered changes stay hunks", strings.Join(few, ""), false},
		{"pure insertion of 20000 lines never trips", before + before, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := diffTexts(before, tc.after)
			n, m := d.a.lineCount(), d.b.lineCount()
			isWhole := len(d.changes) == 1 && d.changes[0] == change{0, n, 0, m}
			if isWhole != tc.wholeFile {
				t.Fatalf("whole-file = %v, want %v (%d changes)", isWhole, tc.wholeFile, len(d.changes))
			}
			got := Hunks("p", before, tc.after)
			if tc.wholeFile {
				want := []presentation.FileDiff{{Path: "p", Line: 1, OldText: ptr(before), NewText: tc.after}}
				if !equalDiffs(got, want) {
					t.Errorf("guard output is not the whole file")
				}
			}
			u, err := Unified("a/p", "b/p", before, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			if out, err := Apply(before, u); err != nil || out != tc.after {
				t.Errorf("Apply(Unified) does not reproduce after: %v", err)
			}
		})
	}
}

func TestGuardLimit(t *testing.T) {
	tests := []struct {
		n, m      int
		wantLimit int
		wantOK    bool
	}{
		{0, 5000000, noLimit, true},
		{100, 100, noLimit, true},
		{2000, 2000, noLimit, true}, // (n+m)² <= GuardBudget
		{5000, 5000, GuardBudget / 10000, true},
		{GuardMaxLines, 1, 0, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%d", tc.n, tc.m), func(t *testing.T) {
			limit, ok := guardLimit(tc.n, tc.m)
			if limit != tc.wantLimit || ok != tc.wantOK {
				t.Errorf("guardLimit = %d, %v; want %d, %v", limit, ok, tc.wantLimit, tc.wantOK)
			}
		})
	}
}

// TestEditDistance checks the bounded Myers pass against the cost of the
// diffmatchpatch diff.
func TestEditDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := range 2000 {
		before := genText(r, 25, []string{"a", "b", "c"})
		after := genText(r, 25, []string{"a", "b", "c"})
		a, b := newText(before), newText(after)
		_, cost, _ := diffRange(a, b, 0, a.lineCount(), 0, b.lineCount(), noLimit)
		ra, rb, _ := lineRunes(a, b, 0, a.lineCount(), 0, b.lineCount())
		if got := editDistance(ra, rb, 60); got != cost {
			t.Fatalf("case %d: editDistance = %d, diff cost %d (%q → %q)", i, got, cost, before, after)
		}
		if cost > 0 {
			if got := editDistance(ra, rb, cost-1); got != -1 {
				t.Fatalf("case %d: editDistance with limit %d = %d, want -1", i, cost-1, got)
			}
		}
	}
}
