package acp

import (
	"encoding/json"
	"errors"
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"
)

// errWritesAbandoned is returned by every write once Serve's shutdown
// grace ran out (see Options.ShutdownGrace), including one that was
// blocked because the client stopped reading.
var errWritesAbandoned = errors.New("acp: the client is not reading and the shutdown grace ran out; the frame was not written")

// writeMessage encodes msg as one line and writes it whole, in turn with
// every other writer, so frames never interleave. When mark is set and
// msg is a response, it is marked written in s.replies once it went out.
// A write error is terminal: it is recorded with fail.
//
// The Write to s.w runs on a goroutine of its own so that abandonWrites
// can end the wait for a client that stopped reading; the abandoned
// Write keeps the turn for as long as it blocks, so nothing is written
// after it (it may still complete, or never).
func (s *ndjsonStream) writeMessage(msg jsonrpc2.Message, mark bool) (int64, error) {
	if !s.takeTurn() {
		return 0, errWritesAbandoned
	}
	buf, err := s.redacted(jsonrpc2.AppendMessage(s.wbuf[:0], msg))
	if err != nil {
		<-s.turn
		s.log.Error("acp: a frame could not be redacted; it was not written", "error", err)
		return 0, err
	}
	buf = append(buf, '\n')
	n, err := s.writeOut(buf)
	if errors.Is(err, errWritesAbandoned) {
		s.wbuf = nil // still the abandoned Write's; the turn is never given back
		return 0, err
	}
	if err == nil && mark {
		if id, ok := responseID(buf); ok {
			s.replies.written(id)
		}
	}
	if cap(buf) <= maxRetainedBuffer {
		s.wbuf = buf[:0]
	} else {
		s.wbuf = nil
	}
	<-s.turn
	if err != nil {
		err = fmt.Errorf("acp: writing a frame: %w", err)
		s.fail(err)
	}
	return int64(n), err
}

// redacted returns frame, the encoding of msg, with every secret the
// stream's Redactor knows replaced by secrets.Marker (see
// Options.Redactor). A fs/write_text_file request is the exception: its
// content is the file the editor writes, byte for byte. (jsonrpc2 hands
// the stream calls of an unexported type, so the method is read from the
// frame; only a frame holding a secret is looked into.)
func (s *ndjsonStream) redacted(frame []byte) ([]byte, error) {
	if !s.redact.Contains(frame) {
		return frame, nil
	}
	var head struct {
		Method string `json:"method"`
	}
	if err := json.Unmarshal(frame, &head); err == nil && head.Method == acpsdk.ClientMethodFsWriteTextFile {
		return frame, nil
	}
	return s.redact.JSON(frame)
}

// takeTurn waits until no other frame is being written and reports true,
// or reports false once the writes are abandoned.
func (s *ndjsonStream) takeTurn() bool {
	select {
	case s.turn <- struct{}{}:
	case <-s.abandoned:
		return false
	}
	select {
	case <-s.abandoned: // both were ready
		<-s.turn
		return false
	default:
		return true
	}
}

// writeOut writes buf to s.w and returns its result, or errWritesAbandoned
// as soon as the writes are abandoned while it blocks.
func (s *ndjsonStream) writeOut(buf []byte) (int, error) {
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := s.w.Write(buf)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-s.abandoned:
		select {
		case r := <-done: // it completed after all
			return r.n, r.err
		default:
			return 0, errWritesAbandoned
		}
	}
}

// abandonWrites makes every write under way or to come return
// errWritesAbandoned at once. Serve calls it when its shutdown grace runs
// out; it is idempotent.
func (s *ndjsonStream) abandonWrites() {
	s.abandonOnce.Do(func() { close(s.abandoned) })
}
