//go:build unix

package search

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// hangGuard bounds a call that must not block; it guards against a wedged
// test and is never a timing assertion.
const hangGuard = 60 * time.Second

// TestOpeningANamedPipeNeverBlocks: a file or directory the walk listed
// and that was then replaced by a named pipe is refused at open, without
// waiting for a writer (issue 7 item 1).
func TestOpeningANamedPipeNeverBlocks(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	unblock := func() {
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	}
	t.Cleanup(unblock)
	guard := func(what string, fn func()) {
		t.Helper()
		done := make(chan struct{})
		go func() {
			defer close(done)
			fn()
		}()
		select {
		case <-done:
		case <-time.After(hangGuard):
			unblock()
			<-done
			t.Errorf("%s blocked on a named pipe", what)
		}
	}
	guard("openRaw", func() {
		f, err := openRaw(fifo)
		if err == nil {
			f.Close()
		}
		if !errors.Is(err, errNotRegular) {
			t.Errorf("openRaw = %v, want errNotRegular", err)
		}
	})
	guard("readDir", func() {
		w := &walker{root: fifo}
		if files := w.readDir(walkJob{dir: fifo, root: true}); len(files) != 0 {
			t.Errorf("readDir listed %v", files)
		}
	})
}
