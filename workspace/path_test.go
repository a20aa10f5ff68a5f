package workspace_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// TestNULPathsAreRefused: a NUL byte in a path is refused before anything
// uses it, and Resolve never cleans it away (issue 7 item 12: "a\x00../../x"
// used to resolve to <cwd>/x).
func TestNULPathsAreRefused(t *testing.T) {
	dir := t.TempDir()
	w, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"a\x00../../x", "\x00", filepath.Join(dir, "x\x00y"), "ok/\x00/.."} {
		t.Run(strings.ReplaceAll(path, "\x00", "NUL"), func(t *testing.T) {
			err := workspace.ValidatePath(path)
			if !errors.Is(err, workspace.ErrInvalidPath) || !strings.Contains(err.Error(), "NUL byte") {
				t.Errorf("ValidatePath = %v, want ErrInvalidPath about a NUL byte", err)
			}
			if abs, err := w.Abs(path); err == nil || abs != "" {
				t.Errorf("Abs = %q, %v, want an error", abs, err)
			}
			if got := w.Resolve(path); !strings.Contains(got, "\x00") {
				t.Errorf("Resolve = %q: the NUL was cleaned away", got)
			}
			if w.Contains(path) {
				t.Errorf("Contains = true for an invalid path")
			}
		})
	}
	if err := workspace.ValidatePath("src/../a.go"); err != nil {
		t.Errorf("ValidatePath(a valid path) = %v", err)
	}
	if abs, err := w.Abs("a.go"); err != nil || abs != filepath.Join(dir, "a.go") {
		t.Errorf("Abs(a.go) = %q, %v", abs, err)
	}
}
