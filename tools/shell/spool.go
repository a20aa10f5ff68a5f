package shell

import (
	"fmt"
	"os"
	"strconv"
)

// spool writes a command's output to a spill file once it is known that
// the kept output will be truncated: until then it holds the output in
// memory (bounded by the streams' limits), then writes it and everything
// after to a new file in the Shell's spill directory. The file keeps the
// first limit bytes of the output; what comes after is counted, not
// written, and a closing line in the file says how much was left out. A
// failure to create or write the file leaves no file and an unavailable
// location.
type spool struct {
	dir     *spillDir
	limit   int64
	pending []byte
	file    *os.File
	path    string
	failed  bool
	written int64 // bytes of output in the file
	dropped int64 // bytes of output past the limit, not written
}

func newSpool(dir *spillDir, limit int64) spool {
	return spool{dir: dir, limit: limit}
}

// write records b.
func (s *spool) write(b []byte) {
	switch {
	case s.failed:
	case s.file != nil:
		room := max(0, s.limit-s.written)
		if int64(len(b)) > room {
			s.dropped += int64(len(b)) - room
			b = b[:room]
		}
		if len(b) == 0 {
			return
		}
		n, err := s.file.Write(b)
		s.written += int64(n)
		if err != nil {
			s.fail()
		}
	default:
		s.pending = append(s.pending, b...)
	}
}

// activate starts writing to the spill file, beginning with everything
// recorded so far. It is idempotent.
func (s *spool) activate() {
	if s.file != nil || s.failed {
		return
	}
	f, err := s.dir.create()
	if err != nil {
		s.failed, s.pending = true, nil
		return
	}
	s.file, s.path = f, f.Name()
	pending := s.pending
	s.pending = nil
	s.write(pending)
}

// close finishes the spill file, with the note on what was left out when
// the limit was reached; it drops what was held in memory.
func (s *spool) close() {
	s.pending = nil
	if s.file == nil {
		return
	}
	if s.dropped > 0 {
		if _, err := fmt.Fprintf(s.file, "\n[dsh-acp: this file keeps the first %d bytes of the output; %d more bytes were not written]\n",
			s.limit, s.dropped); err != nil {
			s.fail()
			return
		}
	}
	if err := s.file.Close(); err != nil {
		s.fail()
		return
	}
	s.file = nil
}

// fail gives up on the spill file and removes it.
func (s *spool) fail() {
	if s.file != nil {
		_ = s.file.Close()
		_ = os.Remove(s.path)
	}
	s.file, s.path, s.failed, s.pending = nil, "", true, nil
}

// location is the spill file's path, or "" when there is none.
func (s *spool) location() string { return s.path }

// kept is the number of output bytes the spill file keeps when the output
// outgrew the limit, or 0 when the file holds all of it so far.
func (s *spool) kept() int64 {
	if s.dropped > 0 {
		return s.limit
	}
	return 0
}

// spillRef names a spill file: its path ("" when there is none) and, when
// the output outgrew the spill limit, how many of its first bytes the file
// keeps.
type spillRef struct {
	path string
	kept int64
}

// String says where the output is: "full output: <path>", "the first <N>
// bytes of the output: <path>", or "full output: (unavailable)".
func (r spillRef) String() string {
	switch {
	case r.path == "":
		return "full output: (unavailable)"
	case r.kept > 0:
		return "the first " + strconv.FormatInt(r.kept, 10) + " bytes of the output: " + r.path
	}
	return "full output: " + r.path
}
