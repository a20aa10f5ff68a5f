package shell

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// gitOutput turns a readable fixture into git's bytes: "⏎" is "\r" and
// "⇥" is "\t".
func gitOutput(s string) string {
	return strings.NewReplacer("⏎", "\r", "⇥", "\t").Replace(s)
}

func strp(s string) *string { return &s }

// The fixtures are what git 2.x printed for the change each names.
const (
	diffTwoFiles = `diff --git a/a.txt b/a.txt
index c9e9e05..061a3ba 100644
--- a/a.txt
+++ b/a.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
@@ -8,3 +8,3 @@ func x() {
 eight
-nine
+NINE
 ten
diff --git a/src/b.go b/src/b.go
index 415a78b..ce5d508 100644
--- a/src/b.go
+++ b/src/b.go
@@ -1 +1,3 @@
 package b
+
+var x = 1
`
	diffNewFileWithSpace = `diff --git a/new file.txt b/new file.txt
new file mode 100644
index 0000000..3e75765
--- /dev/null
+++ b/new file.txt⇥
@@ -0,0 +1,2 @@
+new
+lines
`
	diffDeleted = `diff --git a/old.txt b/old.txt
deleted file mode 100644
index 286c5f5..0000000
--- a/old.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-gone
-too
`
	diffRenamedChanged = `diff --git a/ren.txt b/renamed.txt
similarity index 80%
rename from ren.txt
rename to renamed.txt
index 0ec1772..49db0cb 100644
--- a/ren.txt
+++ b/renamed.txt
@@ -1,5 +1,5 @@
 r1
 r2
-r3
+R3
 r4
 r5
`
	diffRenamedOnly = `diff --git a/pure.txt b/moved.txt
similarity index 100%
rename from pure.txt
rename to moved.txt
`
	diffBinary = `diff --git a/img.bin b/img.bin
index 88768ef..3e3315e 100644
Binary files a/img.bin and b/img.bin differ
`
	diffModeAndEmptyNew = `diff --git a/a.txt b/a.txt
old mode 100644
new mode 100755
diff --git a/empty.txt b/empty.txt
new file mode 100644
index 0000000..e69de29
`
	diffCRLF = `diff --git a/crlf.txt b/crlf.txt
index 415a78b..ce5d508 100644
--- a/crlf.txt
+++ b/crlf.txt
@@ -1,3 +1,3 @@
 x⏎
-y⏎
+Y⏎
 z⏎
`
	diffNoNewline = `diff --git a/nonl.txt b/nonl.txt
index d5f5c2a..6ac34ae 100644
--- a/nonl.txt
+++ b/nonl.txt
@@ -1 +1 @@
-nl
\ No newline at end of file
+nl2
\ No newline at end of file
`
	diffNewlineAdded = `diff --git a/a.txt b/a.txt
index 1..2 100644
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
 a
-b
\ No newline at end of file
+b
`
	diffNewlineRemoved = `diff --git a/a.txt b/a.txt
index 1..2 100644
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
 a
-b
+b
\ No newline at end of file
`
	diffLastLineContext = `diff --git a/a.txt b/a.txt
index 1..2 100644
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
-a
+A
 z
\ No newline at end of file
`
	showCommit = `commit ff53901780d47902d611961a73962c2f8806c846
Author: n <a@b>
Date:   Mon Nov 30 20:15:40 2026 +0000

    second change

    diff --git not a header

diff --git a/img.bin b/img.bin
index 88768ef..3e3315e 100644
Binary files a/img.bin and b/img.bin differ
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 286c5f5..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-gone
`
	diffQuoted = `diff --git "a/\303\251.txt" "b/\303\251.txt"
index d905d9d..34eaebd 100644
--- "a/\303\251.txt"
+++ "b/\303\251.txt"
@@ -1 +1,2 @@
 e
+f
`
	diffNoPrefix = `diff --git src/x.go src/x.go
index d905d9d..34eaebd 100644
--- src/x.go
+++ src/x.go
@@ -1 +1 @@
-a
+b
`
	diffWords = `diff --git a/e.txt b/e.txt
index d905d9d..34eaebd 100644
--- a/e.txt
+++ b/e.txt
@@ -1 +1,2 @@
e
{+f+}
`
	diffCombined = `diff --cc m.txt
index 1,1..2
--- a/m.txt
+++ b/m.txt
@@@ -1,1 -1,1 +1,1 @@@
- a
 -b
++c
`
	diffTrailingText = `diff --git a/a.txt b/a.txt
index c9e9e05..061a3ba 100644
--- a/a.txt
+++ b/a.txt
@@ -1 +1 @@
-a
+b
 not part of the hunk
`
	diffStat = ` a.txt | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)
`
)

func TestParseGitDiff(t *testing.T) {
	tests := []struct {
		name     string
		out      string
		root     string
		diffs    []presentation.FileDiff
		notShown []string
	}{
		{"two files, one with two hunks", diffTwoFiles, "", []presentation.FileDiff{
			{Path: "a.txt", OldText: strp("one\ntwo\nthree\n"), NewText: "one\nTWO\nthree\n", Line: 2},
			{Path: "a.txt", OldText: strp("eight\nnine\nten\n"), NewText: "eight\nNINE\nten\n", Line: 9},
			{Path: "src/b.go", OldText: strp("package b\n"), NewText: "package b\n\nvar x = 1\n", Line: 2},
		}, nil},
		{"paths joined to a relative workdir", diffTwoFiles[:strings.Index(diffTwoFiles, "@@ -8")], "sub/dir", []presentation.FileDiff{
			{Path: "sub/dir/a.txt", OldText: strp("one\ntwo\nthree\n"), NewText: "one\nTWO\nthree\n", Line: 2},
		}, nil},
		{"paths joined to an absolute workdir", diffNoNewline, "/srv/app", []presentation.FileDiff{
			{Path: "/srv/app/nonl.txt", OldText: strp("nl"), NewText: "nl2", Line: 1},
		}, nil},
		{"new file with a space in its name", gitOutput(diffNewFileWithSpace), "", []presentation.FileDiff{
			{Path: "new file.txt", NewText: "new\nlines\n", Line: 1},
		}, nil},
		{"deleted file", diffDeleted, "", []presentation.FileDiff{
			{Path: "old.txt", OldText: strp("gone\ntoo\n"), NewText: ""},
		}, nil},
		{"renamed and changed: the new name", diffRenamedChanged, "", []presentation.FileDiff{
			{Path: "renamed.txt", OldText: strp("r1\nr2\nr3\nr4\nr5\n"), NewText: "r1\nr2\nR3\nr4\nr5\n", Line: 3},
		}, nil},
		{"renamed only", diffRenamedOnly + diffNoNewline, "", []presentation.FileDiff{
			{Path: "nonl.txt", OldText: strp("nl"), NewText: "nl2", Line: 1},
		}, []string{"moved.txt (renamed from pure.txt)"}},
		{"binary", diffBinary + diffDeleted, "", []presentation.FileDiff{
			{Path: "old.txt", OldText: strp("gone\ntoo\n"), NewText: ""},
		}, []string{"img.bin (binary)"}},
		{"binary alone", diffBinary, "", nil, []string{"img.bin (binary)"}},
		{"mode change, empty new file", diffModeAndEmptyNew, "", []presentation.FileDiff{
			{Path: "empty.txt", NewText: ""},
		}, []string{"a.txt (mode changed)"}},
		{"CRLF lines keep their CR", gitOutput(diffCRLF), "", []presentation.FileDiff{
			{Path: "crlf.txt", OldText: strp("x\r\ny\r\nz\r\n"), NewText: "x\r\nY\r\nz\r\n", Line: 2},
		}, nil},
		{"no newline at end of file", diffNoNewline, "", []presentation.FileDiff{
			{Path: "nonl.txt", OldText: strp("nl"), NewText: "nl2", Line: 1},
		}, nil},
		{"a final newline added", diffNewlineAdded, "", []presentation.FileDiff{
			{Path: "a.txt", OldText: strp("a\nb"), NewText: "a\nb\n", Line: 2},
		}, nil},
		{"a final newline taken away", diffNewlineRemoved, "", []presentation.FileDiff{
			{Path: "a.txt", OldText: strp("a\nb\n"), NewText: "a\nb", Line: 2},
		}, nil},
		{"an unchanged last line without a newline", diffLastLineContext, "", []presentation.FileDiff{
			{Path: "a.txt", OldText: strp("a\nz"), NewText: "A\nz", Line: 1},
		}, nil},
		{"git show: the commit header is set aside", showCommit, "", []presentation.FileDiff{
			{Path: "old.txt", OldText: strp("gone\n"), NewText: ""},
		}, []string{"img.bin (binary)"}},
		{"quoted non-ASCII name", diffQuoted, "", []presentation.FileDiff{
			{Path: "é.txt", OldText: strp("e\n"), NewText: "e\nf\n", Line: 2},
		}, nil},
		{"--no-prefix names stay whole", diffNoPrefix, "", []presentation.FileDiff{
			{Path: "src/x.go", OldText: strp("a\n"), NewText: "b\n", Line: 1},
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseGitDiff(tt.out, tt.root)
			if err != nil {
				t.Fatalf("parseGitDiff: %v", err)
			}
			if !reflect.DeepEqual(got.diffs, tt.diffs) {
				t.Errorf("diffs =\n%s\nwant\n%s", showDiffs(got.diffs), showDiffs(tt.diffs))
			}
			if !reflect.DeepEqual(got.notShown, tt.notShown) {
				t.Errorf("notShown = %q, want %q", got.notShown, tt.notShown)
			}
		})
	}
}

func TestParseGitDiffFails(t *testing.T) {
	tests := []struct {
		name string
		out  string
	}{
		{"empty", ""},
		{"no output", noOutput},
		{"--stat", diffStat},
		{"word diff", diffWords},
		{"combined diff", diffCombined},
		{"text after the last hunk", diffTrailingText},
		{"a header without names", "diff --git x\n"},
		{"cut inside a hunk", diffTwoFiles[:strings.Index(diffTwoFiles, "-nine")]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := parseGitDiff(tt.out, ""); err == nil {
				t.Errorf("parseGitDiff succeeded: %s, not shown %q", showDiffs(got.diffs), got.notShown)
			}
		})
	}
}

// showDiffs prints diffs for a failure message.
func showDiffs(diffs []presentation.FileDiff) string {
	var b strings.Builder
	for _, d := range diffs {
		old := "<nil>"
		if d.OldText != nil {
			old = strconv.Quote(*d.OldText)
		}
		b.WriteString(d.Path + ": " + old + " -> " + strconv.Quote(d.NewText) + "\n")
	}
	return b.String()
}
