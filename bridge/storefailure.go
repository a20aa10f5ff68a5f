package bridge

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/session"
)

// A session whose storing fails — a read-only or full state directory,
// an index that cannot be written — runs on: no turn fails because of
// it. The store keeps what it can (the log when only the index fails)
// and retries the rest; the user is told once per session, with a
// notice in the conversation at the end of the turn it first happened
// in, naming the state directory and the error.

// storeFailed records a failure to store the session; the first one not
// yet told is told at the end of the turn.
func (s *liveSession) storeFailed(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.storeErr == nil && !s.storeTold {
		s.storeErr = err
	}
}

// tellStoreFailure writes what the journal holds, so that a failure of
// the turn's last events is seen too, and tells the user of the first
// failure to store the session, once in the session's life.
func (s *liveSession) tellStoreFailure() {
	if s.journal != nil {
		s.persist()
	}
	s.mu.Lock()
	err := s.storeErr
	s.storeErr = nil
	if err != nil {
		s.storeTold = true
	}
	s.mu.Unlock()
	if err == nil {
		return
	}
	dir := "the state directory"
	if store := s.bridge.opts.Store; store != nil {
		dir = store.Dir()
	}
	s.rt.Log().Append(session.Notice{Text: storeFailureText(dir, err)})
}

// storeFailureText is what the user is told when a session could not be
// stored in dir.
func storeFailureText(dir string, err error) string {
	return fmt.Sprintf("This session could not be stored in %s: %v. The conversation goes on and storing is retried; "+
		"until it succeeds, the session may be missing from the session list, or incomplete when it is loaded again.", dir, err)
}
