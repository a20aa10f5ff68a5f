package session

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// ErrLocked is wrapped by the error for a session that is open in a
// Journal elsewhere: in another dsh-acp process sharing the state
// directory, or already in this one. The error is a *LockedError.
var ErrLocked = errors.New("session is open elsewhere")

// LockedError says which session is open elsewhere and, when known, the
// id of the process holding it. errors.Is(err, ErrLocked) holds for it.
type LockedError struct {
	ID string
	// PID is the holder's process id, or 0 when it could not be read.
	PID int
}

// Error says where the session is open and what to do about it.
func (e *LockedError) Error() string {
	name := shortID(e.ID)
	switch e.PID {
	case 0:
		return fmt.Sprintf("session %s is open in another dsh-acp process; close it there first", name)
	case os.Getpid():
		return fmt.Sprintf("session %s is already open in this dsh-acp process", name)
	default:
		return fmt.Sprintf("session %s is open in another dsh-acp process (pid %d); close it there first", name, e.PID)
	}
}

// Is reports whether target is ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// shortID returns the first characters of a session id, for messages.
func shortID(id string) string {
	const n = 8
	if len(id) <= n {
		return id
	}
	return id[:n] + "…"
}

// lockSession takes the session's lock file without waiting and writes
// this process's id into it, for the message another process shows. A
// lock held elsewhere — by another process, or by another Journal in this
// one — is a *LockedError.
func (s *Store) lockSession(id string) (*flock.Flock, error) {
	path := s.lockPath(id)
	lock := flock.New(path, flock.SetPermissions(filePerm))
	ok, err := lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock session %s: %w", shortID(id), err)
	}
	if !ok {
		return nil, &LockedError{ID: id, PID: readPID(path)}
	}
	if err := writePID(path); err != nil {
		lock.Close()
		return nil, fmt.Errorf("lock session %s: %w", shortID(id), err)
	}
	return lock, nil
}

// writePID writes this process's id at the start of the lock file,
// padded to a fixed width so that it covers any id written before. The
// file is overwritten in place, never truncated: on ext4, truncating a
// file that has data and writing it again forces a flush to disk when it
// is closed, which costs as much as an fsync.
func writePID(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, filePerm)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(fmt.Appendf(nil, "%-20d\n", os.Getpid()), 0)
	return errors.Join(err, f.Close())
}

// readPID returns the process id written in a lock file, or 0.
func readPID(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return 0
	}
	return pid
}
