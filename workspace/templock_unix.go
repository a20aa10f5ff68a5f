//go:build unix

package workspace

import (
	"errors"
	"os"
	"syscall"

	"github.com/dsh-acp/dsh-acp/internal/atomicfile"
)

// openNoFollow makes an open fail on a symbolic link instead of following
// it.
const openNoFollow = syscall.O_NOFOLLOW

// lockTemp takes the exclusive lock a live write holds on its temporary
// file. A file system without locks leaves it unlocked.
func lockTemp(f *os.File) {
	_ = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
}

// tryLock tries to take f's exclusive lock without waiting; a lock taken
// is released when f is closed.
func tryLock(f *os.File) lockResult {
	switch err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); {
	case err == nil:
		return lockTaken
	case errors.Is(err, syscall.EWOULDBLOCK):
		return lockHeld
	default:
		return lockUnsupported
	}
}

// flock applies how to f's open file, retrying when a signal interrupts.
func flock(f *os.File, how int) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var lockErr error
	err = raw.Control(func(fd uintptr) {
		for {
			lockErr = syscall.Flock(int(fd), how)
			if !errors.Is(lockErr, syscall.EINTR) {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	return lockErr
}

// replaceWith renames the written temporary file tmp over target, still
// open, so its lock holds until the rename is done.
func replaceWith(tmp *os.File, target string) error {
	return atomicfile.Rename(tmp.Name(), target)
}
