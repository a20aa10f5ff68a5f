package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// The logs are the truth and the index is what they say, kept in one
// file so that listing the sessions reads one file. When the two
// disagree — a corrupt index, an index that could not be written while
// the logs could, a crash between removing a log and its entry — the
// index is brought back in line with the logs: when the store opens, and
// when a corrupt index is found.

// repairIndex rebuilds a corrupt index from the logs and returns its
// entries: the corrupt file is kept aside as index.json.corrupt-<time>
// and the rebuilt index replaces it. When the rebuilt index cannot be
// written (a read-only or full disk) the entries rebuilt in memory are
// returned all the same and the failure is logged: the sessions stay
// listed, and the next update tries again.
func (s *Store) repairIndex() ([]indexEntry, error) {
	err := s.updateIndex(func(*indexDoc) error { return nil })
	if err == nil {
		entries, err := s.readEntries()
		if err == nil {
			return entries, nil
		}
	}
	s.logger.Error("session index could not be repaired; the sessions are listed from their logs", "index", s.indexPath(), "error", err)
	doc, rerr := s.rebuiltDoc()
	if rerr != nil {
		return nil, errors.Join(err, rerr)
	}
	return doc.entries, nil
}

// rebuiltDoc is an index document made from the logs alone, marked to be
// written.
func (s *Store) rebuiltDoc() (*indexDoc, error) {
	doc := &indexDoc{redact: s.redact, changed: true}
	if err := s.syncWithLogs(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// keepAside writes data, a corrupt index, to a new file beside it named
// index.json.corrupt-<UTC time>, and returns its path. An existing file
// of that name is never replaced.
func (s *Store) keepAside(data []byte) (string, error) {
	base := s.indexPath() + ".corrupt-" + s.now().UTC().Format("20060102T150405Z")
	for n := 1; ; n++ {
		path := base
		if n > 1 {
			path = fmt.Sprintf("%s-%d", base, n)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, filePerm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("keep the corrupt index aside: %w", err)
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", fmt.Errorf("keep the corrupt index aside: %w", err)
		}
		return path, nil
	}
}

// syncWithLogs makes doc list exactly the sessions that have a log:
// entries whose log is gone are dropped, and a log without an entry gets
// the one it records (see recoverMeta). A log that cannot be read is
// logged and left out.
func (s *Store) syncWithLogs(doc *indexDoc) error {
	ids, err := s.logIDs()
	if err != nil {
		return err
	}
	has := make(map[string]bool, len(ids))
	for _, id := range ids {
		has[id] = true
	}
	var gone []string
	for _, e := range doc.entries {
		if !has[e.meta.ID] {
			gone = append(gone, e.meta.ID)
		}
	}
	for _, id := range gone {
		s.logger.Warn("session index: dropped an entry whose log is gone", "session", id)
		doc.remove(id)
	}
	for _, id := range ids {
		if doc.find(id) >= 0 {
			continue
		}
		m, err := s.recoverMeta(id)
		if err != nil {
			s.logger.Warn("session index: a log could not be read", "session", id, "error", err)
			continue
		}
		s.logger.Info("session index: added a session from its log", "session", id)
		doc.add(m)
	}
	return nil
}

// logIDs returns the ids of the sessions that have a log, sorted. It
// reads names only, as this runs each time a store opens: something else
// named like a log is found out when it is read.
func (s *Store) logIDs() ([]string, error) {
	dir, err := os.Open(s.sessionsDir())
	if err != nil {
		return nil, fmt.Errorf("list the session logs: %w", err)
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list the session logs: %w", err)
	}
	ids := names[:0]
	for _, name := range names {
		if id, ok := strings.CutSuffix(name, ".jsonl"); ok && checkID(id) == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// syncIndex brings the index in line with the logs (see syncWithLogs).
// An index that is already takes no lock and writes nothing. It is best
// effort: a failure is logged, and the store works on.
func (s *Store) syncIndex() {
	if s.indexMatchesLogs() {
		return
	}
	if err := s.updateIndex(s.syncWithLogs); err != nil {
		s.logger.Warn("session index could not be brought in line with the logs", "index", s.indexPath(), "error", err)
	}
}

// indexMatchesLogs reports whether the index can be read and lists the
// sessions that have a log, no more and no fewer.
func (s *Store) indexMatchesLogs() bool {
	entries, err := s.readEntries()
	if err != nil {
		return false
	}
	ids, err := s.logIDs()
	if err != nil || len(ids) != len(entries) {
		return false
	}
	listed := make(map[string]bool, len(entries))
	for _, e := range entries {
		listed[e.meta.ID] = true
	}
	for _, id := range ids {
		if !listed[id] {
			return false
		}
	}
	return true
}
