//go:build unix

package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// hangGuard bounds a call that must not block; it is a guard against a
// wedged test, never a timing assertion.
const hangGuard = 60 * time.Second

// mkfifo makes a named pipe at path. A test that wedged on it anyway is
// freed at cleanup: opening the pipe read-write unblocks any open of it.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// unblock frees whoever waits to open or read the pipe at path: it opens
// the pipe read-write (which never blocks) and closes it again, so a
// blocked reader gets end of file.
func unblock(path string) {
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
	}
}

// TestLocalRefusesNonRegularFiles: reading or writing a named pipe is
// refused at once and leaves the pipe as it was (issue 7 item 1); a
// directory is refused the same way.
func TestLocalRefusesNonRegularFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	link := filepath.Join(dir, "link")
	linktest.Symlink(t, fifo, link)
	local := workspace.Local{}
	for _, path := range []string{fifo, link} {
		done := make(chan error, 1)
		go func() {
			_, err := local.ReadFile(ctx, path)
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(hangGuard):
			unblock(fifo)
			err = <-done
			t.Errorf("ReadFile(%s) blocked on the named pipe", filepath.Base(path))
		}
		if !errors.Is(err, workspace.ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("ReadFile(%s) = %v, want ErrNotRegular naming a named pipe", filepath.Base(path), err)
		}
		if err := local.WriteFile(ctx, path, []byte("x")); !errors.Is(err, workspace.ErrNotRegular) {
			t.Errorf("WriteFile(%s) = %v, want ErrNotRegular", filepath.Base(path), err)
		}
		if info, err := os.Lstat(fifo); err != nil || info.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the named pipe was replaced: %v %v", info.Mode(), err)
		}
	}
	if _, err := local.ReadFile(ctx, dir); !errors.Is(err, workspace.ErrNotRegular) || !strings.Contains(err.Error(), "directory") {
		t.Errorf("ReadFile(a directory) = %v", err)
	}
}

// TestNotRegularErrorNamesTheKind: the message says what the path is.
func TestNotRegularErrorNamesTheKind(t *testing.T) {
	tests := []struct {
		mode os.FileMode
		want string
	}{
		{os.ModeNamedPipe, "named pipe"},
		{os.ModeSocket, "socket"},
		{os.ModeDevice | os.ModeCharDevice, "character device"},
		{os.ModeDevice, "block device"},
		{os.ModeDir, "directory"},
		{os.ModeIrregular, "special file"},
	}
	for _, tt := range tests {
		err := &workspace.NotRegularError{Path: "ws/x", Mode: tt.mode}
		want := "ws/x is not a regular file (" + tt.want + "); read, write and edit work on regular files only"
		if err.Error() != want {
			t.Errorf("%v: %q, want %q", tt.mode, err.Error(), want)
		}
		if workspace.FileKind(tt.mode) != tt.want {
			t.Errorf("FileKind(%v) = %q", tt.mode, workspace.FileKind(tt.mode))
		}
	}
}
