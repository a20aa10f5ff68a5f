package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
)

// load reads the log of a session whose lock is held and returns its
// Journal. A torn tail is cut off the file before anything is appended.
func (s *Store) load(id string, lock *flock.Flock) (*Journal, Loaded, error) {
	f, err := os.OpenFile(s.logPath(id), os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Loaded{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return nil, Loaded{}, fmt.Errorf("open session %s: %w", id, err)
	}
	j, loaded, err := s.loadFile(id, lock, f)
	if err != nil {
		f.Close()
		return nil, Loaded{}, err
	}
	return j, loaded, nil
}

func (s *Store) loadFile(id string, lock *flock.Flock, f *os.File) (*Journal, Loaded, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, Loaded{}, fmt.Errorf("open session %s: %w", id, err)
	}
	var content bytes.Buffer
	content.Grow(int(info.Size()) + bytes.MinRead)
	if _, err := content.ReadFrom(f); err != nil {
		return nil, Loaded{}, fmt.Errorf("read session %s: %w", id, err)
	}
	data := content.Bytes()
	parsed := s.parseLog(id, data)
	if parsed.end < len(data) {
		s.logger.Warn("session log: ignored a torn tail (a write cut short by a crash)",
			"session", id, "offset", parsed.end, "bytes", len(data)-parsed.end)
		if err := f.Truncate(int64(parsed.end)); err != nil {
			return nil, Loaded{}, fmt.Errorf("cut the torn tail off session %s: %w", id, err)
		}
	}
	meta, err := s.Get(id)
	if errors.Is(err, ErrNotFound) {
		s.logger.Warn("session log has no index entry; its Meta is read from the log", "session", id)
		meta, err = parsed.meta, nil
		meta.ID = id
	}
	if err != nil {
		return nil, Loaded{}, err
	}
	j := newJournal(s, meta, lock, f, int64(parsed.end))
	return j, Loaded{Meta: meta, Events: mergeRuns(parsed.events), Skipped: parsed.skipped}, nil
}

// parsedLog is what parseLog read from a log.
type parsedLog struct {
	events  []Event
	meta    Meta // the last meta line's
	skipped int
	// end is where the last whole JSON line ends; what follows is a torn
	// tail.
	end int
}

// parseLog decodes a log's lines. A line that is whole JSON but cannot
// be read (a kind this build does not know, a malformed field) is skipped
// with a warning. A line that is not JSON is corrupt: skipped with a
// warning when a whole line follows it, otherwise part of the torn tail,
// as is a last line without its newline.
func (s *Store) parseLog(id string, data []byte) parsedLog {
	var p parsedLog
	var corrupt []int // numbers of the corrupt lines since the last whole one
	number := 0
	dropped := func(card string) {
		s.logger.Warn("session log: dropped a card this build does not know", "session", id, "line", number, "card", card)
	}
	for start := 0; start < len(data); {
		nl := bytes.IndexByte(data[start:], '\n')
		if nl < 0 {
			break
		}
		line := data[start : start+nl]
		start += nl + 1
		number++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		// A whole line ends the run of corrupt lines before it: they are
		// skipped, not a torn tail.
		whole := func() {
			for _, n := range corrupt {
				s.logger.Warn("session log: skipped a corrupt line", "session", id, "line", n)
			}
			p.skipped += len(corrupt)
			corrupt = corrupt[:0]
			p.end = start
		}
		if isMetaLine(line) {
			if m, err := decodeMetaLine(line); err == nil {
				whole()
				p.meta = m
				continue
			}
		}
		ev, err := decodeEvent(line, dropped)
		if err != nil && !json.Valid(line) {
			corrupt = append(corrupt, number)
			continue
		}
		whole()
		if err != nil {
			s.logger.Warn("session log: skipped a line this build cannot read", "session", id, "line", number, "error", err)
			p.skipped++
			continue
		}
		p.events = append(p.events, ev)
	}
	return p
}
