package workspace_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

func TestLocalWriteIsAtomicAndKeepsMode(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	local := workspace.Local{}
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte("old\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := local.WriteFile(ctx, script, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(script)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o755 {
		t.Errorf("mode = %v, want 0755", info.Mode().Perm())
	}
	if data, _ := local.ReadFile(ctx, script); string(data) != "new\n" {
		t.Errorf("content = %q", data)
	}
	// Parents are created; nothing but the files themselves is left behind.
	nested := filepath.Join(dir, "a", "b", "c.txt")
	if err := local.WriteFile(ctx, nested, []byte("x")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "run.sh" && e.Name() != "a" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestLocalWriteFollowsSymlinks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(target, []byte("old"), 0o600)
	linktest.Symlink(t, target, link)
	if err := (workspace.Local{}).WriteFile(ctx, link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target = %q", data)
	}
}

func TestLocalErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	local := workspace.Local{}
	if _, err := local.ReadFile(ctx, filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if err := local.WriteFile(ctx, dir, []byte("x")); err == nil {
		t.Errorf("writing over a directory succeeded")
	}
	file := filepath.Join(dir, "plain")
	os.WriteFile(file, nil, 0o644)
	if err := local.WriteFile(ctx, filepath.Join(file, "child"), []byte("x")); err == nil {
		t.Errorf("writing below a regular file succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := local.WriteFile(cancelled, filepath.Join(dir, "c"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write: %v", err)
	}
	if _, err := local.Stat(ctx, file); err != nil {
		t.Errorf("Stat: %v", err)
	}
}

// TestLocalWriteThroughDanglingLink: a link whose target does not exist yet
// is followed too: the target is created and the link stays a link (it used
// to be replaced by a file).
func TestLocalWriteThroughDanglingLink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere", "new.txt")
	link := filepath.Join(dir, "dangle")
	linktest.Symlink(t, target, link)
	if err := (workspace.Local{}).WriteFile(ctx, link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target = %q", data)
	}
	// A link loop reaches no file: the write fails and the links stay.
	loop := filepath.Join(dir, "loop")
	linktest.Symlink(t, "loop", loop)
	if err := (workspace.Local{}).WriteFile(ctx, loop, []byte("x")); err == nil {
		t.Errorf("writing through a link loop succeeded")
	}
	if fi, err := os.Lstat(loop); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the looping link was replaced: %v", err)
	}
}
