package diffcard

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchLines returns n distinct, source-like lines (each ends in "\n").
func benchLines(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("\tx%06d := compute(%d, \"some text on this line\") // note\n", i, i*7)
	}
	return lines
}

// file1MB returns about 1 MB of source-like text and its lines.
func file1MB() (string, []string) {
	lines := benchLines(1 << 20 / 64)
	return strings.Join(lines, ""), lines
}

// BenchmarkEditHunks1MB measures one edit in the middle of a 1 MB file
// turned into its diff cards.
func BenchmarkEditHunks1MB(b *testing.B) {
	before, _ := file1MB()
	old := "x008000 := compute(56000"
	i := strings.Index(before, old)
	sites := []Site{{Offset: i, OldLen: len(old), New: "y008000 := recompute(56000"}}
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for b.Loop() {
		if ds, err := EditHunks("f.go", before, sites); err != nil || len(ds) != 1 {
			b.Fatal(len(ds), err)
		}
	}
}

// BenchmarkHunksScattered10k measures a write that rewrites a 10,000-line
// file with 50 scattered changes.
func BenchmarkHunksScattered10k(b *testing.B) {
	lines := benchLines(10000)
	before := strings.Join(lines, "")
	r := rand.New(rand.NewPCG(7, 8))
	for _, k := range r.Perm(10000)[:50] {
		lines[k] = "\tchanged()\n"
	}
	after := strings.Join(lines, "")
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := Hunks("f.go", before, after); len(ds) == 0 {
			b.Fatal("no hunks")
		}
	}
}

// BenchmarkHunksEveryLine1MB measures the worst case: every line of a 1 MB
// file changed. The guard makes it a whole-file diff.
func BenchmarkHunksEveryLine1MB(b *testing.B) {
	before, lines := file1MB()
	changed := make([]string, len(lines))
	for i, l := range lines {
		changed[i] = "\t// " + l
	}
	after := strings.Join(changed, "")
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := Hunks("f.go", before, after); len(ds) != 1 {
			b.Fatal(len(ds))
		}
	}
}

// BenchmarkHunksGuardWorst1MB measures the most work the guard allows: the
// lines of a 1 MB file reversed, so no cheap bound rejects the diff and the
// bounded Myers pass runs to its limit before falling back.
func BenchmarkHunksGuardWorst1MB(b *testing.B) {
	before, lines := file1MB()
	reversed := make([]string, len(lines))
	for i, l := range lines {
		reversed[len(lines)-1-i] = l
	}
	after := strings.Join(reversed, "")
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := Hunks("f.go", before, after); len(ds) != 1 {
			b.Fatal(len(ds))
		}
	}
}

// BenchmarkHunksUnderGuard1MB measures the largest diff the guard lets
// through on a 1 MB file: just under GuardBudget/(n+m) changed lines.
func BenchmarkHunksUnderGuard1MB(b *testing.B) {
	before, lines := file1MB()
	limit := GuardBudget / (2 * len(lines))
	changed := append([]string(nil), lines...)
	step := 2 * len(lines) / limit
	for i := 0; i < len(changed); i += step {
		changed[i] = "\t// " + changed[i]
	}
	after := strings.Join(changed, "")
	b.SetBytes(int64(len(before)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := Hunks("f.go", before, after); len(ds) < 2 {
			b.Fatal(len(ds))
		}
	}
}
