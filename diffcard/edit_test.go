package diffcard

import (
	"errors"
	"strings"
	"testing"
)

// sitesOf returns the sites of replacing old by neu once (all false, first
// occurrence) or everywhere, the way the edit tool finds them.
func sitesOf(before, old, neu string, all bool) []Site {
	var sites []Site
	for pos := 0; pos <= len(before); {
		k := strings.Index(before[pos:], old)
		if k < 0 {
			break
		}
		sites = append(sites, Site{Offset: pos + k, OldLen: len(old), New: neu})
		if !all {
			break
		}
		pos += k + max(len(old), 1)
	}
	return sites
}

func TestEditHunks(t *testing.T) {
	src := strings.Join(numbered(40), "")
	tests := []struct {
		name          string
		before        string
		old, neu      string
		all           bool
		wantDiffCount int
	}{
		{"F22 single replacement", "a\nb\nc\nOLD\nd\ne\nf\n", "OLD", "NEW", false, 1},
		{"F2 replace_all at lines 3 and 16", strings.Replace(strings.Replace(strings.Join(numbered(20), ""), "line3\n", "T\n", 1), "line16\n", "T\n", 1), "T", "X", true, 2},
		{"replace_all with many sites", strings.Repeat("foo()\nbar\nbaz\nqux\nquux\ncorge\ngrault\ngarply\n", 50), "foo", "fooBar", true, 50},
		{"sites on adjacent lines merge", "k\nk\nk\nk\nk\nk\nk\nk\nk\nk\n", "k", "K", true, 1},
		{"two sites on one line", "x = a + a\ny\n", "a", "b", true, 1},
		{"multi-line old and new", src, "line10\nline11\nline12\n", "ten\neleven\n", false, 1},
		{"shared leading and trailing lines are context", src, "line9\nline10\nline11\n", "line9\nTEN\nline11\n", false, 1},
		{"new text repeats old lines", src, "line20\n", "line20\nline20\n", false, 1},
		{"insertion at start", src, "line1\n", "first\nline1\n", false, 1},
		{"insertion at end", src, "line40\n", "line40\nlast\n", false, 1},
		{"delete whole lines", src, "line5\nline6\n", "", false, 1},
		{"join two lines", src, "line5\n", "line5 ", false, 1},
		{"CRLF text", strings.ReplaceAll(src, "\n", "\r\n"), "line7\r\n", "seven\r\nmore\r\n", false, 1},
		{"no final newline, edit last line", strings.TrimSuffix(src, "\n"), "line40", "forty", false, 1},
		{"no final newline, append a newline", strings.TrimSuffix(src, "\n"), "line40", "line40\n", false, 1},
		{"edit that changes nothing", src, "line3", "line3", false, 0},
		{"empty file", "", "", "brand new\n", false, 1},
		{"whole file replaced", "a\nb\n", "a\nb\n", "c\n", false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sites := sitesOf(tc.before, tc.old, tc.neu, tc.all)
			if len(sites) == 0 {
				t.Fatalf("%q not found", tc.old)
			}
			after, err := ApplySites(tc.before, sites)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Replace(tc.before, tc.old, tc.neu, map[bool]int{true: -1, false: 1}[tc.all]); tc.old != "" && after != want {
				t.Fatalf("ApplySites = %q, want %q", after, want)
			}
			got, err := EditHunks("p", tc.before, sites)
			if err != nil {
				t.Fatal(err)
			}
			want := Hunks("p", tc.before, after)
			if !equalDiffs(got, want) {
				t.Errorf("EditHunks =\n%s\nHunks =\n%s", Meta(got), Meta(want))
			}
			if len(got) != tc.wantDiffCount {
				t.Errorf("%d diffs, want %d", len(got), tc.wantDiffCount)
			}
		})
	}
}

// TestEditHunksLargeScattered covers the group-by-group path through the
// public API: replace_all across a file far larger than exactSpanLines.
func TestEditHunksLargeScattered(t *testing.T) {
	lines := benchLines(30000)
	for i := 0; i < len(lines); i += 997 {
		lines[i] = "\tTODO(x)\n"
	}
	before := strings.Join(lines, "")
	for _, neu := range []string{"\tDONE(x)", "\tDONE(x)\n\tmore()", "", "\tTODO(x)\n\tTODO(x)"} {
		sites := sitesOf(before, "\tTODO(x)", neu, true)
		after, _ := ApplySites(before, sites)
		got, err := EditHunks("p", before, sites)
		if err != nil {
			t.Fatal(err)
		}
		if want := Hunks("p", before, after); !equalDiffs(got, want) {
			t.Errorf("new %q: EditHunks differs from Hunks (%d vs %d diffs)", neu, len(got), len(want))
		}
	}
}

func TestEditHunksBadSites(t *testing.T) {
	tests := []struct {
		name  string
		sites []Site
	}{
		{"negative offset", []Site{{Offset: -1}}},
		{"negative length", []Site{{Offset: 1, OldLen: -1}}},
		{"beyond the end", []Site{{Offset: 3, OldLen: 6}}},
		{"overlapping", []Site{{Offset: 0, OldLen: 3}, {Offset: 2, OldLen: 1}}},
		{"out of order", []Site{{Offset: 4, OldLen: 1}, {Offset: 0, OldLen: 1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := EditHunks("p", "abc\ndef\n", tc.sites); !errors.Is(err, ErrBadSite) {
				t.Errorf("EditHunks error = %v, want ErrBadSite", err)
			}
			if _, err := ApplySites("abc\ndef\n", tc.sites); !errors.Is(err, ErrBadSite) {
				t.Errorf("ApplySites error = %v, want ErrBadSite", err)
			}
		})
	}
}
