package diffcard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          string
	}{
		{"identical gives empty text", "a\n", "a\n", ""},
		{
			"no newline on both sides", "x", "y",
			"--- a/f\n+++ b/f\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n",
		},
		{
			"newline added at end", "a\nb", "a\nb\n",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		},
		{
			"newline removed at end", "a\nb\n", "a\nb",
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
		},
		{
			"unterminated context line", "a\nb\nc", "A\nb\nc",
			"--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n\\ No newline at end of file\n",
		},
		{"new file", "", "brand new\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,1 @@\n+brand new\n"},
		{"deleted file", "gone\n", "", "--- a/f\n+++ b/f\n@@ -1,1 +0,0 @@\n-gone\n"},
		{"CRLF kept", "a\r\nb\r\n", "a\r\nc\r\n", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Unified("a/f", "b/f", tc.before, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Unified =\n%q\nwant\n%q", got, tc.want)
			}
			if out, err := Apply(tc.before, got); err != nil || out != tc.after {
				t.Errorf("Apply = %q, %v; want %q", out, err, tc.after)
			}
		})
	}
}

// TestUnifiedMatchesGNUDiff compares our text with diff -U3 where the
// minimal diff is unique (distinct lines), when GNU diff is on PATH.
func TestUnifiedMatchesGNUDiff(t *testing.T) {
	gnu, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("diff not on PATH")
	}
	lines := numbered(40)
	tests := []struct{ name, before, after string }{
		{"gap of 6 merges", with(lines, nil), with(lines, map[int]string{5: "X\n", 12: "Y\n"})},
		{"gap of 7 splits", with(lines, nil), with(lines, map[int]string{5: "X\n", 13: "Y\n", 40: "Z"})},
		{"start and end", with(lines, nil), "new\n" + strings.TrimSuffix(with(lines, nil), "\n")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, s := range map[string]string{"a": tc.before, "b": tc.after} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command(gnu, "-U3", "--label", "a/f", "--label", "b/f", "a", "b")
			cmd.Dir = dir
			out, _ := cmd.Output() // exit status 1 means "differ"
			got, err := Unified("a/f", "b/f", tc.before, tc.after)
			if err != nil {
				t.Fatal(err)
			}
			// GNU diff omits a count of 1 ("@@ -5 +5 @@"); go-diff always writes it.
			if normalizeCounts(string(out)) != normalizeCounts(got) {
				t.Errorf("Unified =\n%s\ndiff -U3 =\n%s", got, out)
			}
		})
	}
}

// normalizeCounts writes every hunk header with explicit counts.
func normalizeCounts(u string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(u, "\n") {
		if strings.HasPrefix(l, "@@ ") {
			f := strings.Fields(l)
			for i := 1; i <= 2; i++ {
				if !strings.Contains(f[i], ",") {
					f[i] += ",1"
				}
			}
			l = strings.Join(f, " ") + "\n"
		}
		b.WriteString(l)
	}
	return b.String()
}

func TestUnifiedQuotesNames(t *testing.T) {
	got, err := Unified("a/tab\there", "b/plain", "x\n", "y\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "--- \"a/tab\\there\"\n+++ b/plain\n") {
		t.Errorf("headers = %q", got)
	}
	if out, err := Apply("x\n", got); err != nil || out != "y\n" {
		t.Errorf("Apply = %q, %v", out, err)
	}
}
