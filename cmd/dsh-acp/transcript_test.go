package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
)

// A diff prints as the unified hunks of its texts: a new file's whole
// content (which ends in a newline) counts its lines exactly, and an
// edit's hunk texts (which do not) print the same way.
func TestTranscriptPrintsDiffs(t *testing.T) {
	tests := []struct {
		name    string
		oldText *string
		newText string
		want    string
	}{
		{
			name: "a new file of four lines", newText: "a\nb\nc\nd\n",
			want: "  --- a/f.sh\n  +++ b/f.sh\n  @@ -0,0 +1,4 @@\n  +a\n  +b\n  +c\n  +d\n",
		},
		{
			name: "a new file without a final newline", newText: "a\nb",
			want: "  --- a/f.sh\n  +++ b/f.sh\n  @@ -0,0 +1,2 @@\n  +a\n  +b\n",
		},
		{
			name: "an edit's hunk", oldText: ptr("x\ny"), newText: "x\nz",
			want: "  --- a/f.sh\n  +++ b/f.sh\n  @@ -1,2 +1,2 @@\n   x\n  -y\n  +z\n",
		},
		{
			name: "a whole-file rewrite", oldText: ptr("x\ny\n"), newText: "x\nz\n",
			want: "  --- a/f.sh\n  +++ b/f.sh\n  @@ -1,2 +1,2 @@\n   x\n  -y\n  +z\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			tr := newTranscript(&out, "/ws", false)
			tr.printContent([]acp.ToolCallContent{acp.Diff{Path: "/ws/f.sh", OldText: tt.oldText, NewText: tt.newText}})
			if got := out.String(); got != tt.want {
				t.Errorf("printed\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestTranscriptPermissionNamesTheCall(t *testing.T) {
	var out bytes.Buffer
	tr := newTranscript(&out, "/ws", false)
	answer := tr.permission(acp.RequestPermissionRequest{ToolCall: acp.ToolCall{Title: "Write f.sh"}, Options: []acp.PermissionOption{
		{OptionID: "allow-once", Kind: acp.PermissionOptionKindAllowOnce}, {OptionID: "reject-once", Kind: acp.PermissionOptionKindRejectOnce},
	}})
	if answer != "allow-once" {
		t.Errorf("answer = %q", answer)
	}
	if want := "  ? permission asked for \"Write f.sh\" (options: allow-once, reject-once)\n  → answered allow-once\n"; !strings.Contains(out.String(), want) {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}
