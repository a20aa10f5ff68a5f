package fs_test

import (
	"os"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/tools/fs"
)

// TestNULInPathIsRefused: a NUL byte in file_path is refused before the
// disk is touched (issue 7 item 12: "a\x00../../x" wrote <cwd>/x).
func TestNULInPathIsRefused(t *testing.T) {
	e := newEnv(t, fs.Options{})
	e.put("x", "keep\n")
	for _, path := range []string{"a\x00../../x", "a\x00../x", "new\x00.txt"} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"read", map[string]any{"file_path": path}},
			{"write", map[string]any{"file_path": path, "content": "clobbered\n"}},
			{"edit", map[string]any{"file_path": path, "old_string": "keep", "new_string": "clobbered"}},
			{"edit", map[string]any{"file_path": path, "old_string": "", "new_string": "clobbered"}},
		} {
			res := e.fail(c.tool, c.args, fs.CodeBadArgs)
			if !strings.Contains(text(res), "contains a NUL byte") {
				t.Errorf("%s %q: message %q", c.tool, path, text(res))
			}
		}
	}
	if got := e.get("x"); got != "keep\n" {
		t.Errorf("x holds %q", got)
	}
	entries, _ := os.ReadDir(e.dir)
	if len(entries) != 1 {
		t.Errorf("the workspace holds %d entries, want only x", len(entries))
	}
}
