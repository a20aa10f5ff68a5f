//go:build unix

package bridge_test

import (
	"os"
	"syscall"
	"testing"
)

// mkfifo makes a named pipe. A server wedged on it anyway is freed when
// the test ends (before the connection closes), so the test fails instead
// of hanging: opening a pipe read-write never blocks and counts as a
// writer.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
}
