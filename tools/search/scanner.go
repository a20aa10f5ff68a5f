package search

import (
	"bytes"
	"context"
	"errors"
	"io"
)

const (
	// chunkSize is how much of a file the scanner reads at a time.
	chunkSize = 64 << 10
)

// kelvinSign and longS are the two non-ASCII letters Go's (?i) matches as
// 'k' and 's'.
const kelvinSign, longS = "\u212a", "\u017f"

// errBinary is the scan result of a file that holds a NUL byte in its
// first chunk.
var errBinary = errors.New("binary file")

// scanner searches files for one matcher, reading each in chunks of
// complete lines. Each worker owns one: it reuses its buffer.
type scanner struct {
	m     *matcher
	buf   []byte
	lower []byte // region lower-cased, for a case-folded prefilter
	next  []int  // per prefilter string: its next offset, -1 unknown, len+1 none
}

// newScanner returns a scanner for m.
func newScanner(m *matcher) *scanner {
	return &scanner{m: m, buf: make([]byte, chunkSize)}
}

// scanFile calls emit with each matching line of the file at path, in
// order: the 1-based line number and the line without its '\n' (only valid
// during the call). A file larger than maxSize (when positive) is skipped.
// A NUL byte in the first chunk makes the file binary (errBinary, no
// matches); a NUL in a later chunk stops the scan there, as in ripgrep.
func (s *scanner) scanFile(ctx context.Context, path string, maxSize int64, emit func(line int, text []byte)) error {
	f, err := openRaw(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fill, line, first := 0, 1, true
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		n, rerr := f.Read(s.buf[fill:])
		fill += n
		if rerr != nil && rerr != io.EOF {
			return rerr
		}
		eof := rerr == io.EOF
		if !eof && fill < len(s.buf) {
			continue
		}
		data := s.buf[:fill]
		if first && !eof && maxSize > 0 {
			if size, err := f.Size(); err == nil && size > maxSize {
				return nil
			}
		}
		if i := bytes.IndexByte(data, 0); i >= 0 {
			if first {
				return errBinary
			}
			return nil
		}
		first = false
		end := fill
		if !eof {
			end = bytes.LastIndexByte(data, '\n') + 1
			if end == 0 {
				// One line longer than the buffer: grow it.
				s.buf = append(s.buf, make([]byte, len(s.buf))...)
				continue
			}
		}
		line = s.search(data[:end], line, emit)
		if eof {
			return nil
		}
		fill = copy(s.buf, data[end:])
	}
}

// search reports the matching lines of region, a run of whole lines (the
// last may lack its '\n' at the end of a file) whose first line is number
// line, and returns the number of the line after it.
func (s *scanner) search(region []byte, line int, emit func(int, []byte)) int {
	m := s.m
	pf := m.prefilter
	haystack := region
	if pf != nil && pf.fold {
		if pf.foldKS && (bytes.Contains(region, []byte(kelvinSign)) || bytes.Contains(region, []byte(longS))) {
			pf = nil
		} else {
			if cap(s.lower) < len(region) {
				s.lower = make([]byte, len(region))
			}
			haystack = s.lower[:len(region)]
			lowerASCII(haystack, region)
		}
	}
	if pf != nil {
		s.next = s.next[:0]
		for range pf.bytes {
			s.next = append(s.next, -1)
		}
	}
	pos, counted := 0, 0
	for pos < len(region) {
		at := pos
		switch {
		case pf != nil:
			at = s.nextLiteral(pf, haystack, pos)
			if at < 0 {
				pos = len(region)
				continue
			}
		case m.block != nil:
			loc := m.block.FindIndex(region[pos:])
			if loc == nil {
				pos = len(region)
				continue
			}
			at = pos + loc[0]
		}
		if at == len(region) && region[at-1] == '\n' {
			break
		}
		start := pos + bytes.LastIndexByte(region[pos:at], '\n') + 1
		end := bytes.IndexByte(region[at:], '\n')
		if end < 0 {
			end = len(region)
		} else {
			end += at
		}
		if text := region[start:end]; m.line.Match(text) {
			line += bytes.Count(region[counted:start], []byte{'\n'})
			counted = start
			emit(line, text)
		}
		pos = end + 1
	}
	return line + bytes.Count(region[counted:], []byte{'\n'})
}

// nextLiteral returns the offset of the first prefilter string at or after
// pos in haystack, or -1. It remembers where each string occurs next, so a
// region is scanned once per string.
func (s *scanner) nextLiteral(pf *literalSet, haystack []byte, pos int) int {
	best := -1
	for i, lit := range pf.bytes {
		at := s.next[i]
		if at < pos {
			if j := bytes.Index(haystack[pos:], lit); j >= 0 {
				at = pos + j
			} else {
				at = len(haystack) + 1
			}
			s.next[i] = at
		}
		if at <= len(haystack) && (best < 0 || at < best) {
			best = at
		}
	}
	return best
}
