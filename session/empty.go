package session

import "errors"

// pruneEmpty removes the empty sessions (Meta.Empty) not updated for
// EmptyKept. A session open anywhere is left alone, and one that got a
// conversation or an update since the index was read is kept: each is
// checked again holding its lock. Failures are logged, not returned.
func (s *Store) pruneEmpty() {
	metas, err := s.readIndex()
	if err != nil {
		return // syncIndex logged it
	}
	cutoff := s.now().Add(-EmptyKept)
	stale := func(m Meta) bool { return m.Empty && m.Updated.Before(cutoff) }
	for _, m := range metas {
		if !stale(m) {
			continue
		}
		err := s.deleteIf(m.ID, stale)
		if err != nil && !errors.Is(err, ErrLocked) && !errors.Is(err, ErrNotFound) {
			s.logger.Warn("an empty session past its time could not be removed", "session", m.ID, "error", err)
		}
	}
}
