package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/tools/search"
)

// ignorePool is what generated .gitignore files are made of: every kind of
// pattern the matcher knows.
var ignorePool = []string{
	"*.log", "!keep*.log", "build/", "/top.txt", "d1/*.md", "**/gen/**", "*.tmp",
	"!important.tmp", "f[0-3].txt", "!f2.txt", "cache", "# comment", "", "d?/x*.go",
	"**/deep/*.txt", "*.{bak,orig}", "!*.orig", "n\\!ame.txt", "trailing.txt   ",
}

// genTree builds a random tree (seeded) with nested .gitignore, .ignore
// and .rgignore files, a
// nested repository, hidden entries, binary files and CRLF lines.
func genTree(t testing.TB, root string, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 1))
	words := []string{"alpha", "beta", "beeta", "gamma", "delta", "EPSILON", "epsilon", "zeta", "zetas", "x1y", "123", "end"}
	dirs := []string{"", "d1", "d2", "d1/deep", "d2/gen", "d2/gen/sub", "cache", "build", ".hidden", "sub1", "sub1/deep", "sub2/nested", "repo", "repo/inner"}
	names := []string{"top.txt", "a.go", "b.md", "f1.txt", "f2.txt", "x1.go", "keep1.log", "drop.log", "t.tmp", "important.tmp", "c.bak", "c.orig", "n!ame.txt", "trailing.txt", ".dot.go", "bin.dat"}
	files := map[string]string{".git/HEAD": "ref\n", ".git/info/exclude": "*.bak\n", "repo/.git/HEAD": "ref\n"}
	for _, d := range dirs {
		for _, f := range []struct {
			name string
			odds int
		}{{".gitignore", 2}, {".ignore", 4}, {".rgignore", 6}} {
			if r.IntN(f.odds) != 0 {
				continue
			}
			var gi []string
			for range 1 + r.IntN(5) {
				gi = append(gi, ignorePool[r.IntN(len(ignorePool))])
			}
			files[path.Join(d, f.name)] = strings.Join(gi, "\n") + "\n"
		}
		for _, n := range names {
			if r.IntN(3) == 0 {
				continue
			}
			var b strings.Builder
			for range 1 + r.IntN(6) {
				for range 1 + r.IntN(4) {
					b.WriteString(words[r.IntN(len(words))] + " ")
				}
				if r.IntN(8) == 0 {
					b.WriteString("\r")
				}
				b.WriteString("\n")
			}
			if n == "bin.dat" {
				b.WriteString("\x00")
			}
			files[path.Join(d, n)] = b.String()
		}
	}
	writeTree(t, root, files)
}

// TestGrepRipgrepEquivalence runs ripgrep and the built-in search on the
// same generated trees and requires identical results.
func TestGrepRipgrepEquivalence(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not on PATH")
	}
	patterns := []string{"alpha", "be+ta", "^gamma", `delta\s*$`, "(?i)epsilon", `\bzeta\b`, "[0-9]{3}", "x.*y", "end $", "a"}
	includes := []string{"", "*.go", "*.{txt,md}", "sub*/**", "!*.go", "*.log", "d1/**/*.txt"}
	for seed := range uint64(6) {
		dir := t.TempDir()
		genTree(t, dir, seed)
		builtin := newFixture(t, dir, search.Options{NoRipgrep: true, MaxMatches: 1 << 20})
		ripgrep := newFixture(t, dir, search.Options{Ripgrep: rg, MaxMatches: 1 << 20})
		for _, p := range patterns {
			for _, inc := range includes {
				for _, at := range []string{"", "d2", "repo"} {
					args := map[string]any{"pattern": p, "include": inc, "path": at}
					t.Run(fmt.Sprintf("seed%d/%s/%s/%s", seed, p, inc, at), func(t *testing.T) {
						var a, b grepValue
						decode(t, builtin.call(t, context.Background(), "grep", args), &a)
						decode(t, ripgrep.call(t, context.Background(), "grep", args), &b)
						if !slices.Equal(a.lines(), b.lines()) || a.Total != b.Total || a.FileCount != b.FileCount {
							t.Errorf("builtin (%d in %d files):\n%s\nripgrep (%d in %d files):\n%s",
								a.Total, a.FileCount, strings.Join(a.lines(), "\n"), b.Total, b.FileCount, strings.Join(b.lines(), "\n"))
						}
					})
				}
			}
		}
	}
}
