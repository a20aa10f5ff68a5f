package workspace_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

func TestNewRequiresAbsolutePaths(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		cwd   string
		extra []string
		files workspace.FileSystem
	}{
		{"relative cwd", "project", nil, workspace.Local{}},
		{"relative extra root", dir, []string{"lib"}, workspace.Local{}},
		{"no file system", dir, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := workspace.New(tt.cwd, tt.extra, tt.files); err == nil {
				t.Errorf("New succeeded")
			}
		})
	}
}

func TestResolveContainsDisplay(t *testing.T) {
	base := t.TempDir()
	project := filepath.Join(base, "project")
	lib := filepath.Join(base, "lib")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{project, lib, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link inside the project that escapes it, and one that stays inside.
	linktest.Symlink(t, outside, filepath.Join(project, "escape"))
	linktest.Symlink(t, filepath.Join(project, "src"), filepath.Join(project, "alias"))
	ws, err := workspace.New(project, []string{lib}, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		resolve string
		inside  bool
		display string
	}{
		{"a.txt", filepath.Join(project, "a.txt"), true, "a.txt"},
		{"src/../b.txt", filepath.Join(project, "b.txt"), true, "b.txt"},
		{"new/dir/file.go", filepath.Join(project, "new/dir/file.go"), true, filepath.Join("new", "dir", "file.go")},
		{filepath.Join(lib, "x.go"), filepath.Join(lib, "x.go"), true, filepath.Join(lib, "x.go")},
		{"../outside/secret", filepath.Join(outside, "secret"), false, filepath.Join(outside, "secret")},
		{"escape/secret", filepath.Join(project, "escape/secret"), false, filepath.Join("escape", "secret")},
		{"alias/file", filepath.Join(project, "alias/file"), true, filepath.Join("alias", "file")},
		{"/etc/passwd", "/etc/passwd", false, "/etc/passwd"},
		{project, project, true, "."},
		{filepath.Join(base, "project-sibling"), filepath.Join(base, "project-sibling"), false, filepath.Join(base, "project-sibling")},
		{"..cache/x", filepath.Join(project, "..cache/x"), true, filepath.Join("..cache", "x")},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := ws.Resolve(tt.path); got != tt.resolve {
				t.Errorf("Resolve = %q, want %q", got, tt.resolve)
			}
			if got := ws.Contains(tt.path); got != tt.inside {
				t.Errorf("Contains = %v, want %v", got, tt.inside)
			}
			if got := ws.Display(tt.path); got != tt.display {
				t.Errorf("Display = %q, want %q", got, tt.display)
			}
		})
	}
	if roots := ws.Roots(); len(roots) != 2 || ws.Cwd() != project {
		t.Errorf("roots = %v, cwd = %q", roots, ws.Cwd())
	}
}
