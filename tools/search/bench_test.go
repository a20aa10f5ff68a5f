package search_test

import (
	"context"
	"testing"

	"github.com/dsh-acp/dsh-acp/tools/search"
)

// BenchmarkGrep20kFiles greps a generated tree of 20,000 small files
// (generated once, not timed) for a pattern found in every 40th file, with
// ripgrep (skipped when rg is absent) and with the built-in search: a
// pattern with a case-sensitive literal, one with a case-folded literal,
// and one with no literal the prefilter can use.
func BenchmarkGrep20kFiles(b *testing.B) {
	dir := b.TempDir()
	genBigTree(b, dir, 20000)
	for _, be := range backends(b) {
		for _, bc := range []struct{ name, pattern string }{
			{"literal", `needleXYZ\(\d\)`},
			{"regex", `(?i)NEEDLE[a-z]+\(`},
			{"noliteral", `[A-Z]{3}\(\d\)`},
		} {
			b.Run(be.name+"/"+bc.name, func(b *testing.B) {
				f := newFixture(b, dir, be.opts)
				args := map[string]any{"pattern": bc.pattern}
				var v grepValue
				decode(b, f.call(b, context.Background(), "grep", args), &v)
				if v.Total != 500 {
					b.Fatalf("found %d matches, want 500", v.Total)
				}
				b.ResetTimer()
				for b.Loop() {
					f.call(b, context.Background(), "grep", args)
				}
			})
		}
	}
}

// BenchmarkGlob20kFiles globs the same tree for every file.
func BenchmarkGlob20kFiles(b *testing.B) {
	dir := b.TempDir()
	genBigTree(b, dir, 20000)
	f := newFixture(b, dir, search.Options{})
	args := map[string]any{"pattern": "**/*.go"}
	for b.Loop() {
		f.call(b, context.Background(), "glob", args)
	}
}
