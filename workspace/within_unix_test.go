//go:build unix

package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

func TestReadFileWithin(t *testing.T) {
	base := t.TempDir()
	inside, outside := filepath.Join(base, "ws"), filepath.Join(base, "home")
	for _, dir := range []string{inside, outside, filepath.Join(inside, "sub")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, path string) {
		linktest.Symlink(t, target, path)
	}
	write(filepath.Join(inside, "notes.md"), "0123456789")
	write(filepath.Join(outside, "key"), "secret")
	link("notes.md", filepath.Join(inside, "to-notes"))
	link(filepath.Join(outside, "key"), filepath.Join(inside, "to-key"))
	link("to-key", filepath.Join(inside, "chain"))
	link(outside, filepath.Join(inside, "home"))
	link("loop", filepath.Join(inside, "loop"))
	if err := syscall.Mkfifo(filepath.Join(inside, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		path    string
		limit   int64
		want    string
		wantErr error
	}{
		{"a file inside", "notes.md", 100, "0123456789", nil},
		{"limit+1 bytes of a longer one", "notes.md", 4, "01234", nil},
		{"a link to a file inside", "to-notes", 100, "0123456789", nil},
		{"a link to a file outside", "to-key", 100, "", workspace.ErrOutside},
		{"a chain of links leading outside", "chain", 100, "", workspace.ErrOutside},
		{"a file in a linked directory outside", "home/key", 100, "", workspace.ErrOutside},
		{"a loop", "loop", 100, "", workspace.ErrOutside},
		{"a FIFO is refused, not waited on", "fifo", 100, "", workspace.ErrNotRegular},
		{"a directory", "sub", 100, "", workspace.ErrNotRegular},
	} {
		data, _, err := workspace.ReadFileWithin(filepath.Join(inside, tt.path), tt.limit, inside)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%s: err = %v, want %v", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(data) != tt.want {
			t.Errorf("%s: ReadFileWithin = %q, %v; want %q", tt.name, data, err, tt.want)
		}
	}
	wantReal, err := filepath.EvalSymlinks(filepath.Join(inside, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	if real, ok := workspace.Locate(filepath.Join(inside, "to-notes"), inside); !ok || real != wantReal {
		t.Errorf("Locate(a link to a file inside) = %q, %v; want %q, true", real, ok, wantReal)
	}
	if real, ok := workspace.Locate(filepath.Join(inside, "chain"), inside); ok {
		t.Errorf("Locate(a chain leading outside) = %q, true; want not inside", real)
	}
	if !workspace.Within(filepath.Join(inside, "home", "key"), inside, outside) {
		t.Error("a file inside the second directory given is not within")
	}
}
