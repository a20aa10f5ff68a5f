package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// A session's log holds, besides its events, the session's Meta as the
// index keeps it: a meta line, written first when the log is created and
// again after every UpdateMeta, so the last one in the log is the
// session's index entry and the index can be rebuilt from the logs.
//
//	{"meta":{"id":…,"cwd":…,"title":…,"created":…,"updated":…,…}}
//
// A meta line is not an event: a loader skips it, and an older build,
// which does not know it, skips it as a line it cannot read.
var metaLinePrefix = []byte(`{"meta":`)

type metaLineWire struct {
	Meta metaWire `json:"meta"`
}

// encodeMetaLine returns m's meta line, redacted, with its newline.
func (s *Store) encodeMetaLine(m Meta) ([]byte, error) {
	line, err := json.Marshal(metaLineWire{Meta: wireMeta(s.redact.Meta(m))})
	if err != nil {
		return nil, fmt.Errorf("encode session %s meta: %w", m.ID, err)
	}
	return append(line, '\n'), nil
}

// isMetaLine reports whether a log line is a meta line.
func isMetaLine(line []byte) bool { return bytes.HasPrefix(line, metaLinePrefix) }

// decodeMetaLine decodes a meta line.
func decodeMetaLine(line []byte) (Meta, error) {
	var w metaLineWire
	if err := json.Unmarshal(line, &w); err != nil {
		return Meta{}, fmt.Errorf("decode meta line: %w", err)
	}
	return w.Meta.meta(), nil
}

// recoverMeta returns the Meta a session's log holds: its last meta
// line. A log written before logs held meta lines gives what its events
// say: its last title and, as Created and Updated, the time of its first
// event and the file's modification time. Only meta lines and title
// events are decoded.
func (s *Store) recoverMeta(id string) (Meta, error) {
	path := s.logPath(id)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Meta{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Meta{}, fmt.Errorf("read session %s log: %w", id, err)
	}
	var last, found Meta // the last meta line's; what the events say
	var hasMeta bool
	for line := range bytes.Lines(data) {
		if !bytes.HasSuffix(line, []byte("\n")) {
			break // a torn last line
		}
		if isMetaLine(line) {
			if m, err := decodeMetaLine(line); err == nil {
				last, hasMeta = m, true
			}
			continue
		}
		if hasMeta {
			continue
		}
		if found.Created.IsZero() {
			var w struct {
				Time time.Time `json:"time"`
			}
			if json.Unmarshal(line, &w) == nil {
				found.Created = w.Time
			}
		}
		if bytes.Contains(line, []byte(`"kind":"session/title"`)) {
			if ev, err := DecodeEvent(line); err == nil {
				if t, ok := ev.Payload.(TitleChanged); ok {
					found.Title = t.Title
				}
			}
		}
	}
	if hasMeta {
		last.ID = id
		return last, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return Meta{}, fmt.Errorf("read session %s log: %w", id, err)
	}
	found.ID, found.Updated = id, info.ModTime()
	if found.Created.IsZero() {
		found.Created = found.Updated
	}
	return found, nil
}

// appendMetaLine records m in the log of a session no Journal has open:
// it takes the session's lock for the write. A session open in another
// process is left alone (its index entry is changed all the same); a
// session whose log is gone is not found.
func (s *Store) appendMetaLine(m Meta) error {
	line, err := s.encodeMetaLine(m)
	if err != nil {
		return err
	}
	lock, err := s.lockSession(m.ID)
	if err != nil {
		return err
	}
	defer lock.Close()
	f, err := os.OpenFile(s.logPath(m.ID), os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s", ErrNotFound, m.ID)
	}
	if err != nil {
		return fmt.Errorf("record session %s meta: %w", m.ID, err)
	}
	// A torn last line (a crash mid-write) is ended first, so that the
	// meta line stands on a line of its own; the torn piece is then
	// skipped as corrupt on load.
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, info.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("record session %s meta: %w", m.ID, err)
	}
	return nil
}
