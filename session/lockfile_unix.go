//go:build !windows

package session

import (
	"os"

	"github.com/gofrs/flock"
)

// removeLockFile removes the lock file at path of a deleted session while
// lock is still held, so no other process takes it in between.
func removeLockFile(_ *flock.Flock, path string) error {
	return os.Remove(path)
}
