//go:build unix

package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenRegularNeverBlocks: a named pipe swapped in after the stat that
// would have refused it is refused at open, without waiting for a writer
// (issue 7 item 1).
func TestOpenRegularNeverBlocks(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, _, err := openRegular(fifo)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second): // a hang guard, not a timing assertion
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
		err = <-done
		t.Errorf("openRegular blocked on a named pipe")
	}
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("openRegular = %v, want ErrNotRegular", err)
	}
}
