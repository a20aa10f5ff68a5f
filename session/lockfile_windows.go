//go:build windows

package session

import (
	"os"

	"github.com/gofrs/flock"
)

// removeLockFile releases lock and removes the lock file at path of a
// deleted session: Windows removes no file that is open. A process that
// locks the file in between finds the session's log gone.
func removeLockFile(lock *flock.Flock, path string) error {
	if err := lock.Close(); err != nil {
		return err
	}
	return os.Remove(path)
}
