package shell

import "os"

// spool writes a command's full output to a file once it is known that the
// kept output will be truncated: until then it holds the output in memory
// (bounded by the streams' limits), then writes it and everything after
// to a new file in dir. A failure to create or write the file leaves no
// file and an unavailable location.
type spool struct {
	dir     string
	pending []byte
	file    *os.File
	path    string
	failed  bool
}

// write records b.
func (s *spool) write(b []byte) {
	switch {
	case s.failed:
	case s.file != nil:
		if _, err := s.file.Write(b); err != nil {
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
	f, err := os.CreateTemp(s.dir, "dsh-bash-*.log")
	if err != nil {
		s.failed, s.pending = true, nil
		return
	}
	s.file, s.path = f, f.Name()
	pending := s.pending
	s.pending = nil
	s.write(pending)
}

// close finishes the spill file; it drops what was held in memory.
func (s *spool) close() {
	s.pending = nil
	if s.file == nil {
		return
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
