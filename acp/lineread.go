package acp

import (
	"bufio"
	"errors"
	"io"
)

// pieceBytes is the size of the pieces a line longer than
// maxRetainedBuffer is collected in before they are joined.
const pieceBytes = 1 << 20

// lineHeadBytes is how much of an oversized line is kept: enough to read
// the request's id from its first members.
const lineHeadBytes = 4 << 10

// readLine reads one line into s.line, without its '\n', and returns its
// length in bytes. A last line without a newline counts as a line; io.EOF
// comes on the next call.
//
// When the line is longer than maxLine, tooLong is set, s.line holds only
// its first bytes (up to lineHeadBytes) and the rest has been read and
// dropped without being buffered.
//
// Memory: a line up to maxRetainedBuffer is read into s.buf, reused from
// line to line. A longer one is collected in pieces of pieceBytes and then
// joined once into a buffer of exactly its size, so an n-byte frame costs
// about 2n bytes of allocation and n bytes of copying, never the repeated
// copies and slack of a growing slice; the joined buffer is dropped at the
// next call.
func (s *ndjsonStream) readLine() (n int64, tooLong bool, err error) {
	if cap(s.buf) > maxRetainedBuffer {
		s.buf = nil
	}
	s.buf = s.buf[:0]
	var pieces [][]byte // the line beyond s.buf
	for {
		frag, err := s.br.ReadSlice('\n')
		n += int64(len(frag))
		content := n // the line's length so far, without its '\n'
		if err == nil {
			content--
		}
		switch {
		case tooLong:
		case content > int64(s.maxLine):
			tooLong = true
			s.keepHead(frag)
			pieces = nil
		default:
			pieces = s.store(pieces, frag)
		}
		switch {
		case err == nil, errors.Is(err, io.EOF) && n > 0:
			if tooLong {
				s.line = s.buf
				return n, true, nil
			}
			s.line = trimNewline(join(s.buf, pieces))
			return n, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return 0, false, err
		}
	}
}

// store appends frag to the line being read: to s.buf while the line fits
// in maxRetainedBuffer, then to pieces.
func (s *ndjsonStream) store(pieces [][]byte, frag []byte) [][]byte {
	if len(pieces) == 0 && len(s.buf)+len(frag) <= maxRetainedBuffer {
		s.buf = append(s.buf, frag...)
		return nil
	}
	for len(frag) > 0 {
		if len(pieces) == 0 || len(pieces[len(pieces)-1]) == pieceBytes {
			pieces = append(pieces, make([]byte, 0, pieceBytes))
		}
		last := &pieces[len(pieces)-1]
		k := min(len(frag), pieceBytes-len(*last))
		*last = append(*last, frag[:k]...)
		frag = frag[k:]
	}
	return pieces
}

// keepHead leaves the first lineHeadBytes of an oversized line in s.buf.
func (s *ndjsonStream) keepHead(frag []byte) {
	if len(s.buf) < lineHeadBytes {
		s.buf = append(s.buf, frag[:min(len(frag), lineHeadBytes-len(s.buf))]...)
	}
	s.buf = s.buf[:min(len(s.buf), lineHeadBytes)]
}

// join returns head followed by pieces in one buffer of exactly their
// size, or head itself when there are no pieces.
func join(head []byte, pieces [][]byte) []byte {
	if len(pieces) == 0 {
		return head
	}
	total := len(head)
	for _, p := range pieces {
		total += len(p)
	}
	line := make([]byte, 0, total)
	line = append(line, head...)
	for _, p := range pieces {
		line = append(line, p...)
	}
	return line
}

// trimNewline drops a line's '\n'.
func trimNewline(line []byte) []byte {
	if len(line) > 0 && line[len(line)-1] == '\n' {
		return line[:len(line)-1]
	}
	return line
}
