package session

import (
	"errors"
	"fmt"
	"os"
	"slices"
)

// newPendingJournal returns the Journal of a session Create started: it
// holds meta and stores nothing until the session has something to keep.
func newPendingJournal(s *Store, meta Meta) *Journal {
	return &Journal{store: s, id: meta.ID, meta: meta}
}

// storeWith stores the session with its Meta changed by fn, the way
// UpdateMeta changes a stored one. When the session is stored already it
// does nothing and reports stored; a Journal closed before its session
// was stored fails with ErrNotFound.
func (j *Journal) storeWith(fn func(*Meta)) (m Meta, stored bool, err error) {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	if j.stored {
		return Meta{}, true, nil
	}
	j.mu.Lock()
	closed := j.closed
	j.mu.Unlock()
	if closed {
		return Meta{}, false, fmt.Errorf("%w: %s", ErrNotFound, j.id)
	}
	meta := j.meta
	meta.AdditionalDirectories = slices.Clone(meta.AdditionalDirectories)
	meta.Updated = j.store.now()
	fn(&meta)
	meta.ID = j.id
	meta.Cwd = cleanPath(meta.Cwd)
	m, err = j.storeSession(meta)
	if err != nil {
		return Meta{}, false, fmt.Errorf("store session %s: %w", j.id, err)
	}
	return m, false, nil
}

// storeSession takes the session's lock, creates its empty log and adds
// meta to the index, in that order: another process finds the log only
// once its lock is held, and an index entry only with its log. It returns
// the Meta the index holds. On failure what was made is undone, except
// the lock file, which is harmless. j.flushMu is held.
func (j *Journal) storeSession(meta Meta) (Meta, error) {
	s := j.store
	lock, err := s.lockSession(j.id)
	if err != nil {
		return Meta{}, err
	}
	f, err := os.OpenFile(s.logPath(j.id), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, filePerm)
	if err != nil {
		lock.Close()
		return Meta{}, fmt.Errorf("create the log: %w", err)
	}
	var out Meta
	err = s.updateIndex(func(doc *indexDoc) error {
		if doc.find(j.id) >= 0 {
			return errors.New("the index has it already")
		}
		out = doc.add(meta)
		return nil
	})
	if err != nil {
		f.Close()
		os.Remove(s.logPath(j.id))
		lock.Close()
		return Meta{}, err
	}
	j.lock, j.file, j.stored, j.meta = lock, f, true, Meta{}
	s.forget(j)
	return out, nil
}

// pendingJournal returns the Journal of the session id when it is open
// here and not stored yet, or nil.
func (s *Store) pendingJournal(id string) *Journal {
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	return s.pending[id]
}

// refusePending fails with a *LockedError naming this process when the
// session id is open in a Journal here and not stored yet.
func (s *Store) refusePending(id string) error {
	if s.pendingJournal(id) != nil {
		return &LockedError{ID: id, PID: os.Getpid()}
	}
	return nil
}

// forget drops j from the sessions open here and not stored yet: it has
// been stored, or closed without ever being stored.
func (s *Store) forget(j *Journal) {
	s.pendingMu.Lock()
	defer s.pendingMu.Unlock()
	if s.pending[j.id] == j {
		delete(s.pending, j.id)
	}
}
