package diffcard

import (
	"errors"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	const before = "one\ntwo\nthree\nfour\n"
	tests := []struct {
		name    string
		unified string
		want    string
		wantErr error
		errText string
	}{
		{name: "empty diff is the identity", unified: "", want: before},
		{name: "headers only", unified: "--- a\n+++ b\n", want: before},
		{
			name:    "applies",
			unified: "--- a\n+++ b\n@@ -2,2 +2,2 @@\n two\n-three\n+THREE\n",
			want:    "one\ntwo\nTHREE\nfour\n",
		},
		{
			name:    "count-less header",
			unified: "--- a\n+++ b\n@@ -1 +1 @@\n-one\n+ONE\n",
			want:    "ONE\ntwo\nthree\nfour\n",
		},
		{
			name:    "insertion after a line",
			unified: "--- a\n+++ b\n@@ -4,0 +5,1 @@\n+five\n",
			want:    before + "five\n",
		},
		{
			name:    "context mismatch names the hunk and line",
			unified: "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-one\n+ONE\n@@ -3,1 +3,1 @@\n-tree\n+TREE\n",
			wantErr: ErrMismatch, errText: `hunk 2 (@@ -3,1 +3,1 @@) at line 3: hunk does not match: expected "tree\n", found "three\n"`,
		},
		{
			name:    "no-newline marker must match",
			unified: "--- a\n+++ b\n@@ -4,1 +4,1 @@\n-four\n\\ No newline at end of file\n+4\n",
			wantErr: ErrMismatch,
		},
		{
			name:    "beyond the end",
			unified: "--- a\n+++ b\n@@ -4,2 +4,1 @@\n four\n-five\n",
			wantErr: ErrMismatch,
		},
		{
			name:    "hunks out of order",
			unified: "--- a\n+++ b\n@@ -3,1 +3,1 @@\n-three\n+3\n@@ -1,1 +1,1 @@\n-one\n+1\n",
			wantErr: ErrMismatch,
		},
		{
			name:    "body disagrees with header",
			unified: "--- a\n+++ b\n@@ -1,2 +1,2 @@\n-one\n+ONE\n",
			wantErr: ErrMalformed,
		},
		{
			name:    "unparseable",
			unified: "--- a\n+++ b\n@@ bogus @@\n",
			wantErr: ErrMalformed,
		},
		{
			name:    "unterminated new line in the middle",
			unified: "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-one\n+ONE\n\\ No newline at end of file\n",
			wantErr: ErrMismatch,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(before, tc.unified)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Apply error = %v, want %v", err, tc.wantErr)
				}
				if tc.errText != "" && !strings.Contains(err.Error(), tc.errText) {
					t.Errorf("error %q does not contain %q", err, tc.errText)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Apply = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestApplyHunkErrorIsTyped(t *testing.T) {
	_, err := Apply("a\n", "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-b\n+c\n")
	var he *HunkError
	if !errors.As(err, &he) || he.Hunk != 1 || he.Line != 1 {
		t.Fatalf("error = %#v, want *HunkError for hunk 1 line 1", err)
	}
}
