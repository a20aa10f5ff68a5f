package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// BenchmarkPresentBashCall measures classifying a command for its
// pending card (a parse with mvdan.cc/sh).
func BenchmarkPresentBashCall(b *testing.B) {
	for _, cmd := range []string{"cat main.go", "rg -n foo src", "go test ./..."} {
		b.Run(cmd, func(b *testing.B) {
			a := bashArgs{Command: cmd, Workdir: "sub"}
			b.ReportAllocs()
			for b.Loop() {
				presentBashCall(a)
			}
		})
	}
}

// BenchmarkPresentGitDiff measures turning git diff output into diff
// cards: 50 files of 4 hunks each (about 1,600 lines, 40 KiB).
func BenchmarkPresentGitDiff(b *testing.B) {
	var out strings.Builder
	for f := range 50 {
		fmt.Fprintf(&out, "diff --git a/pkg/file%d.go b/pkg/file%d.go\nindex 1111111..2222222 100644\n--- a/pkg/file%d.go\n+++ b/pkg/file%d.go\n", f, f, f, f)
		for h := range 4 {
			fmt.Fprintf(&out, "@@ -%d,7 +%d,7 @@ func f%d() {\n", 1+h*20, 1+h*20, h)
			out.WriteString("  context line one\n  context line two\n  context line three\n")
			out.WriteString("-\told := compute(a, b)\n+\tnew := compute(a, b, c)\n")
			out.WriteString("  context line four\n  context line five\n  context line six\n")
		}
	}
	a := bashArgs{Command: "git diff"}
	ws := testWorkspace(b)
	r := presentation.ToolResult{Content: []presentation.ContentBlock{presentation.Text(out.String())}, Meta: `{"exitCode":0}`}
	if v, ok := presentBashResult(ws, a, r).(presentation.DiffResultView); !ok || len(v.Diffs) != 200 {
		b.Fatalf("not 200 diff cards: %#v", presentBashResult(ws, a, r))
	}
	b.SetBytes(int64(out.Len()))
	b.ReportAllocs()
	for b.Loop() {
		presentBashResult(ws, a, r)
	}
}
