package session

import (
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
	meta := j.meta
	j.mu.Unlock()
	if closed {
		return Meta{}, false, fmt.Errorf("%w: %s", ErrNotFound, j.id)
	}
	meta.AdditionalDirectories = slices.Clone(meta.AdditionalDirectories)
	meta.Updated = j.store.now()
	fn(&meta)
	meta.ID = j.id
	meta.Cwd = cleanPath(meta.Cwd)
	m, err = j.storeSession(meta)
	if err != nil {
		return m, false, fmt.Errorf("store session %s: %w", j.id, err)
	}
	return m, false, nil
}

// storeSession takes the session's lock, creates its log holding meta's
// meta line and adds meta to the index, in that order: another process
// finds the log only once its lock is held, and an index entry only with
// its log. It returns the Meta the log and the index hold.
//
// When the lock cannot be taken or the log cannot be made, what was made
// is undone, except the lock file, which is harmless, and the session is
// not stored. When only the index fails, the session is stored all the
// same — in its log — and the index's error is returned. j.flushMu is
// held.
func (j *Journal) storeSession(meta Meta) (Meta, error) {
	s := j.store
	meta = s.redact.Meta(meta)
	line, err := s.encodeMetaLine(meta)
	if err != nil {
		return Meta{}, err
	}
	lock, err := s.lockSession(j.id)
	if err != nil {
		return Meta{}, err
	}
	f, err := os.OpenFile(s.logPath(j.id), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, filePerm)
	if err != nil {
		lock.Close()
		return Meta{}, fmt.Errorf("create the log: %w", err)
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		os.Remove(s.logPath(j.id))
		lock.Close()
		return Meta{}, fmt.Errorf("create the log: %w", err)
	}
	j.mu.Lock()
	j.lock, j.file, j.size, j.stored, j.meta = lock, f, int64(len(line)), true, meta
	j.mu.Unlock()
	err = s.updateIndex(func(doc *indexDoc) error {
		// A store that opened the directory since the log was made may
		// have added the session from it already.
		doc.upsert(meta)
		return nil
	})
	if err != nil {
		return meta, fmt.Errorf("add it to the session index: %w", err)
	}
	return meta, nil
}

// recordMeta makes m the session's Meta and queues its meta line for the
// next Flush; only the latest meta line is kept. It reports false, doing
// nothing, once the Journal is closed.
func (j *Journal) recordMeta(m Meta) bool {
	line, err := j.store.encodeMetaLine(m)
	if err != nil {
		j.store.logger.Error("session journal: meta left out of the log", "session", j.id, "error", err)
		return true
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return false
	}
	j.meta, j.metaLine = m, line
	return true
}

// currentMeta returns a copy of the session's Meta as the Journal knows
// it.
func (j *Journal) currentMeta() Meta {
	j.mu.Lock()
	defer j.mu.Unlock()
	m := j.meta
	m.AdditionalDirectories = slices.Clone(m.AdditionalDirectories)
	return m
}

// openJournal returns the Journal that has the session id open here,
// stored or not, or nil.
func (s *Store) openJournal(id string) *Journal {
	s.journalsMu.Lock()
	defer s.journalsMu.Unlock()
	return s.journals[id]
}

// refuseOpen fails with a *LockedError naming this process when the
// session id is open in a Journal here.
func (s *Store) refuseOpen(id string) error {
	if s.openJournal(id) != nil {
		return &LockedError{ID: id, PID: os.Getpid()}
	}
	return nil
}

// forget drops j from the sessions open here: it was closed.
func (s *Store) forget(j *Journal) {
	s.journalsMu.Lock()
	defer s.journalsMu.Unlock()
	if s.journals[j.id] == j {
		delete(s.journals, j.id)
	}
}
