package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// TestContainsFollowsDanglingLinks: a link inside the workspace counts as
// where it leads, even when its target does not exist yet (issue 7 item 4).
func TestContainsFollowsDanglingLinks(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{ws, outside, filepath.Join(ws, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"dangle":       filepath.Join(outside, "new.txt"), // absolute, target missing
		"reldangle":    "../outside/new.txt",              // relative, target missing
		"dangledir":    filepath.Join(outside, "nodir"),   // a missing directory
		"future":       filepath.Join(ws, "future.txt"),   // dangling, but inside
		"chain":        "chain2",                          // a chain that ends outside
		"chain2":       filepath.Join(outside, "far.txt"), //
		"loop1":        "loop2",                           // a loop: reaches nothing
		"loop2":        "loop1",                           //
		"sub/up":       "../../outside/x",                 // relative to its own directory
		"climb":        "missing/../../outside/y",         // '..' after a missing name
		"inside-again": "../ws/sub/../future-too.txt",     // leaves and comes back
	}
	for name, target := range links {
		linktest.Symlink(t, target, filepath.Join(ws, name))
	}
	w, err := workspace.New(ws, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path   string
		inside bool
		target string // what Target answers; "" for a loop
	}{
		{"dangle", false, filepath.Join(outside, "new.txt")},
		{"reldangle", false, filepath.Join(outside, "new.txt")},
		{"dangledir/f.txt", false, filepath.Join(outside, "nodir", "f.txt")},
		{"future", true, filepath.Join(ws, "future.txt")},
		{"chain", false, filepath.Join(outside, "far.txt")},
		{"loop1", false, ""},
		{"loop1/x", false, ""},
		{"sub/up", false, filepath.Join(outside, "x")},
		{"climb", false, filepath.Join(outside, "y")},
		{"inside-again", true, filepath.Join(ws, "future-too.txt")},
		{"plain/new.txt", true, filepath.Join(ws, "plain", "new.txt")},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := w.Contains(tt.path); got != tt.inside {
				t.Errorf("Contains = %v, want %v", got, tt.inside)
			}
			got, ok := w.Target(tt.path)
			if tt.target == "" {
				if ok {
					t.Errorf("Target = %q, want a loop", got)
				}
				return
			}
			if !ok || got != tt.target {
				t.Errorf("Target = %q, %v, want %q", got, ok, tt.target)
			}
		})
	}
}

// TestDotDotAfterLink: a ".." after a link to a directory leaves where the
// link leads, as the kernel takes it, never where the text suggests
// (issue 16: "echo > shared/../x" landed outside while the policy cleaned
// "shared/.." away as text).
func TestDotDotAfterLink(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside", "deep")
	for _, d := range []string{filepath.Join(ws, "sub", "inner"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{
		"shared":    outside,                           // a directory outside
		"innerlink": filepath.Join(ws, "sub", "inner"), // a directory inside
		"loop":      "loop",
	} {
		linktest.Symlink(t, target, filepath.Join(ws, name))
	}
	w, err := workspace.New(ws, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		inside  bool
		resolve string // what Resolve answers
	}{
		{"shared/../x", false, filepath.Join(base, "outside", "x")},
		{"shared/../../x", false, filepath.Join(base, "x")},
		{ws + "/shared/../x", false, filepath.Join(base, "outside", "x")},
		{"shared/./../deep/../x", false, filepath.Join(base, "outside", "x")},
		{"innerlink/../x", true, filepath.Join(ws, "sub", "x")},
		{"innerlink/../../x", true, filepath.Join(ws, "x")},
		{"innerlink/../../../x", false, filepath.Join(base, "x")},
		{"sub/../x", true, filepath.Join(ws, "x")},
		{"shared", false, filepath.Join(ws, "shared")}, // the last name stays a link
		{"loop/../x", false, ws + string(filepath.Separator) + "loop/../x"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := w.Contains(tt.path); got != tt.inside {
				t.Errorf("Contains = %v, want %v", got, tt.inside)
			}
			if got := w.Resolve(tt.path); got != tt.resolve {
				t.Errorf("Resolve = %q, want %q", got, tt.resolve)
			}
		})
	}
}

// TestProcIsNeverInside: another process's environment, memory and
// command line are reads outside the workspace whatever its roots (issue
// 16: "tr '\0' '\n' < /proc/$PPID/environ" printed the agent's keys).
func TestProcIsNeverInside(t *testing.T) {
	w, err := workspace.New("/", nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/proc/self/environ", "/proc/1/mem", "/proc/self/cmdline", "/proc"} {
		if w.Contains(path) {
			t.Errorf("Contains(%q) with the root / = true, want false", path)
		}
	}
	if !w.Contains("/etc") {
		t.Error("Contains(/etc) with the root / = false, want true")
	}
}
