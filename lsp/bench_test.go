package lsp_test

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkAfterWriteWarmGopls measures an edit's round trip to a warm
// gopls: didChange, didSave and the diagnostics of the new version, for
// edits that alternately break and fix the file. It reports the median
// and 95th percentile besides the mean.
func BenchmarkAfterWriteWarmGopls(b *testing.B) {
	root := goModule(b, map[string]string{"main.go": goodMain})
	m := newManager(b, root, hangGuard)
	broken := strings.Replace(goodMain, "println(greeting())", "println(greting())", 1)
	write(b, m, root, "main.go", goodMain) // start and warm the server
	var took []time.Duration
	i := 0
	for b.Loop() {
		text := goodMain
		if i%2 == 0 {
			text = broken
		}
		start := time.Now()
		got := write(b, m, root, "main.go", text)
		took = append(took, time.Since(start))
		if (i%2 == 0) != strings.Contains(got, "undefined: greting") {
			b.Fatalf("write %d: AfterWrite = %q", i, got)
		}
		i++
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(took[min(len(took)-1, len(took)*95/100)].Microseconds())/1000, "p95-ms")
}
