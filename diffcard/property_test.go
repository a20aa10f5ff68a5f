package diffcard

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sourcegraph/go-diff/diff"
)

var propertyAlphabet = []string{"a", "b", "c", "d", "", "a b", "\t}", "ü", "x\r"}

// TestPropertyRoundTrip checks, for random before/after texts, that Apply
// reproduces after from Unified, that Hunks are the unified hunks' sides,
// and (when GNU patch is on PATH) that patch reproduces after too.
func TestPropertyRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	patch, _ := exec.LookPath("patch")
	iterations := 3000
	if testing.Short() {
		iterations = 300
	}
	for i := range iterations {
		before := genText(r, 30, propertyAlphabet)
		after := genText(r, 30, propertyAlphabet)
		if r.IntN(2) == 0 {
			after = mutate(r, before, propertyAlphabet)
		}
		if !checkRoundTrip(t, before, after) {
			t.Run(fmt.Sprintf("case%d", i), func(t *testing.T) {
				t.Errorf("before %q\nafter  %q", before, after)
			})
			continue
		}
		if patch != "" && i%10 == 0 {
			checkPatch(t, patch, before, after)
		}
	}
}

// checkRoundTrip checks properties (a) and (b) for one pair, reporting
// failures on t; it returns false on any failure.
func checkRoundTrip(t *testing.T, before, after string) bool {
	t.Helper()
	u, err := Unified("a/f", "b/f", before, after)
	if err != nil {
		t.Errorf("Unified: %v", err)
		return false
	}
	got, err := Apply(before, u)
	if err != nil || got != after {
		t.Errorf("Apply(Unified) = %q, %v; want %q\n%s", got, err, after, u)
		return false
	}
	hs := Hunks("f", before, after)
	if u == "" {
		if hs != nil {
			t.Errorf("Hunks = %v for identical texts", hs)
			return false
		}
		return true
	}
	fd, err := diff.ParseFileDiffOptions([]byte(u), diff.ParseOptions{KeepCR: true})
	if err != nil {
		t.Errorf("parse: %v", err)
		return false
	}
	if len(fd.Hunks) != len(hs) {
		t.Errorf("%d FileDiffs for %d unified hunks", len(hs), len(fd.Hunks))
		return false
	}
	for k, h := range fd.Hunks {
		old, neu, err := hunkSides(h)
		if err != nil {
			t.Errorf("hunk %d: %v", k, err)
			return false
		}
		wantOld, wantNew := strings.Join(old, ""), strings.Join(neu, "")
		if (hs[k].OldText == nil) != (len(old) == 0) || hs[k].Old() != wantOld || hs[k].NewText != wantNew {
			t.Errorf("FileDiff %d = %q/%q, unified hunk sides %q/%q", k, hs[k].Old(), hs[k].NewText, wantOld, wantNew)
			return false
		}
	}
	return true
}

// checkPatch applies Unified's output with GNU patch (property c).
func checkPatch(t *testing.T, patch, before, after string) {
	t.Helper()
	u, _ := Unified("a/f", "b/f", before, after)
	if u == "" {
		return
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(patch, "--batch", "--silent", "--no-backup-if-mismatch", "-F0", "-p1", "-d", dir)
	cmd.Stdin = strings.NewReader(u)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("patch: %v\n%s\n%s", err, out, u)
		return
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != after {
		t.Errorf("patch gave %q, want %q\n%s", got, after, u)
	}
}

// TestPropertyEditHunks checks that EditHunks equals Hunks for random edits,
// single and replace_all, including the split (per-group) path.
func TestPropertyEditHunks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabets := [][]string{propertyAlphabet, {"a", "b"}, {"x"}}
	iterations := 20000
	if testing.Short() {
		iterations = 2000
	}
	for i := range iterations {
		alphabet := alphabets[i%len(alphabets)]
		before := genText(r, 40, alphabet)
		sites := genEdit(r, before, alphabet)
		if !checkEdit(t, before, sites) {
			t.Run(fmt.Sprintf("case%d", i), func(t *testing.T) {
				t.Errorf("before %q\nsites %+v", before, sites)
			})
		}
	}
}

// checkEdit reports whether EditHunks agrees with Hunks for one edit.
func checkEdit(t *testing.T, before string, sites []Site) bool {
	t.Helper()
	after, err := ApplySites(before, sites)
	if err != nil {
		t.Errorf("ApplySites: %v", err)
		return false
	}
	got, err := EditHunks("f", before, sites)
	if err != nil {
		t.Errorf("EditHunks: %v", err)
		return false
	}
	want := Hunks("f", before, after)
	if !equalDiffs(got, want) {
		t.Errorf("EditHunks = %s\nHunks     = %s", Meta(got), Meta(want))
		return false
	}
	return true
}

// TestPropertyEditHunksSplit forces the group-by-group path of EditHunks
// and measures how often it equals Hunks; with lines that rarely repeat
// (like source code) it must always.
func TestPropertyEditHunksSplit(t *testing.T) {
	cases := []struct {
		name     string
		alphabet []string
		strict   bool
	}{
		{"distinct", distinctAlphabet(200), true},
		{"small", propertyAlphabet, true},
		{"binary", []string{"a", "b"}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, 6))
			mismatches, total := 0, 0
			for i := range 5000 {
				before := genText(r, 60, tc.alphabet)
				sites := genEdit(r, before, tc.alphabet)
				after, err := ApplySites(before, sites)
				if err != nil {
					t.Fatal(err)
				}
				v, err := newEditView(before, sites)
				if err != nil {
					t.Fatal(err)
				}
				d := v.diff(0)
				got := d.fileDiffs("f")
				if applied := applyDiff(t, before, d); applied != after {
					t.Fatalf("case %d: split diff does not apply: got %q want %q", i, applied, after)
				}
				total++
				if !equalDiffs(got, Hunks("f", before, after)) {
					mismatches++
					if tc.strict {
						t.Errorf("case %d: before %q sites %+v", i, before, sites)
					}
				}
			}
			t.Logf("%s: %d of %d split edits differ from Hunks", tc.name, mismatches, total)
		})
	}
}

// distinctAlphabet returns n distinct line texts.
func distinctAlphabet(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("line %d", i)
	}
	return out
}

// applyDiff prints d as unified text and applies it to before.
func applyDiff(t *testing.T, before string, d lineDiff) string {
	t.Helper()
	fd := &diff.FileDiff{OrigName: "a", NewName: "b"}
	for _, h := range d.hunks(Context) {
		fd.Hunks = append(fd.Hunks, d.unifiedHunk(h))
	}
	if len(fd.Hunks) == 0 {
		return before
	}
	out, err := diff.PrintFileDiff(fd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Apply(before, string(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got
}
