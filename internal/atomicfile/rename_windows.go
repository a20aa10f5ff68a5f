//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// retryFor bounds how long Rename waits for another process to close the
// target; retryEvery is the pause between tries.
const (
	retryFor   = 2 * time.Second
	retryEvery = 10 * time.Millisecond
)

// Rename renames from over to in one step (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING), trying again for up to retryFor while
// another process holds to open (access denied, a sharing or lock
// violation).
func Rename(from, to string) error {
	deadline := time.Now().Add(retryFor)
	for {
		err := os.Rename(from, to)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(retryEvery)
	}
}

// busy reports whether err says another process has the file open.
func busy(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// SyncDir does nothing on Windows: a directory cannot be flushed there
// (FlushFileBuffers on it is refused), and NTFS journals the rename.
func SyncDir(string) error { return nil }

// ReadFile reads the file at path, trying again for up to retryFor while
// a Rename in another process is replacing it (a sharing violation).
func ReadFile(path string) ([]byte, error) {
	deadline := time.Now().Add(retryFor)
	for {
		data, err := os.ReadFile(path)
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return data, err
		}
		time.Sleep(retryEvery)
	}
}
