package fs_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/tools/fs"
)

// TestWindowsAliasNamesAreRefused: on Windows, a name that opens another
// file than it reads (a device, a name Windows trims, a data stream) is
// refused before the disk is touched, so "nul.txt" never swallows a
// write and ".env." never edits ".env" past a rule about it.
func TestWindowsAliasNamesAreRefused(t *testing.T) {
	e := newEnv(t, fs.Options{})
	e.put(".env", "keep\n")
	for _, tt := range []struct{ path, says string }{
		{"nul.txt", "reserves for a device"},
		{`sub\CON`, "reserves for a device"},
		{".env.", "ending in a dot or a space"},
		{".env ", "ending in a dot or a space"},
		{".env:stream", "data stream"},
	} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"read", map[string]any{"file_path": tt.path}},
			{"write", map[string]any{"file_path": tt.path, "content": "clobbered\n"}},
			{"edit", map[string]any{"file_path": tt.path, "old_string": "keep", "new_string": "clobbered"}},
		} {
			res := e.fail(c.tool, c.args, fs.CodeBadArgs)
			if !strings.Contains(text(res), tt.says) {
				t.Errorf("%s %q: message %q, want it to say %q", c.tool, tt.path, text(res), tt.says)
			}
		}
	}
	if got := e.get(".env"); got != "keep\n" {
		t.Errorf(".env holds %q", got)
	}
	entries, _ := os.ReadDir(e.dir)
	if len(entries) != 1 {
		t.Errorf("the workspace holds %d entries, want only .env", len(entries))
	}
}
