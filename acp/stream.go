package acp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// DefaultMaxLineBytes is the longest frame the server reads: 32 MiB, the
// TypeScript SDK's DEFAULT_MAX_MESSAGE_BYTES (image prompts arrive base64
// inline).
const DefaultMaxLineBytes = 32 << 20

// maxRetainedBuffer bounds the read and write buffers kept between frames,
// so one huge frame does not pin its memory for the life of the connection.
const maxRetainedBuffer = 1 << 20

// ndjsonStream is a jsonrpc2.Stream over newline-delimited JSON that
// tolerates what editors and humans send, the way the ACP TypeScript SDK
// does. Bad input is answered and skipped; the connection lives on:
//
//   - blank lines (and whitespace-only lines) are skipped;
//   - CRLF line ends are accepted;
//   - invalid UTF-8 is replaced by U+FFFD before decoding (as a
//     non-fatal TextDecoder does);
//   - a line that is not JSON is answered -32700 with id null;
//   - JSON that is not a JSON-RPC message is answered -32600, with the
//     message's id when one can be read, null otherwise;
//   - a JSON array (a batch) is answered -32600;
//   - a line longer than maxLine is answered -32600 (with the request's
//     id when its first bytes hold it, null otherwise) and its remainder
//     is discarded up to the next newline without being buffered.
//
// Writes take turns: each frame and its '\n' go out in one Write (see
// writeMessage), and every answer jsonrpc2 writes is marked in replies.
// A terminal read or write error is recorded once and signalled on done.
type ndjsonStream struct {
	r       io.Reader
	br      *bufio.Reader
	w       io.Writer
	maxLine int
	log     *slog.Logger
	replies *replies
	// redact hides secrets in every frame written (Options.Redactor);
	// nil hides nothing.
	redact *secrets.Redactor

	line []byte // the current frame (see readLine); decoded requests borrow it until the next Read
	buf  []byte // the buffer short lines are read into, reused from line to line

	turn        chan struct{} // holds a token while a frame is written; its holder owns wbuf
	wbuf        []byte
	abandoned   chan struct{} // closed by abandonWrites
	abandonOnce sync.Once

	failOnce sync.Once
	done     chan struct{} // closed on the first terminal read or write error
	err      error         // the terminal error; read after done is closed

	closeOnce sync.Once
}

func newNDJSONStream(r io.Reader, w io.Writer, maxLine int, log *slog.Logger, replies *replies) *ndjsonStream {
	return &ndjsonStream{
		r:         r,
		br:        bufio.NewReaderSize(r, 64<<10),
		w:         w,
		maxLine:   maxLine,
		log:       log,
		replies:   replies,
		turn:      make(chan struct{}, 1),
		abandoned: make(chan struct{}),
		done:      make(chan struct{}),
	}
}

// Read implements jsonrpc2.Stream. It returns the next well-formed
// message, answering and skipping every bad line on the way.
func (s *ndjsonStream) Read(_ context.Context) (jsonrpc2.Message, int64, error) {
	for {
		n, tooLong, err := s.readLine()
		if err != nil {
			s.fail(err)
			return nil, 0, err
		}
		if tooLong {
			id := leadingID(s.line)
			s.log.Warn("acp: frame exceeds the line limit; discarded", "bytes", n, "limit", s.maxLine, "id", id)
			s.answer(id, jsonrpc2.Errorf(jsonrpc2.InvalidRequest,
				"message of %d bytes exceeds the %s line limit; discarded (send large content in smaller messages)", n, formatBytes(s.maxLine)))
			continue
		}
		body := bytes.TrimSpace(s.line)
		if len(body) == 0 {
			continue
		}
		if !utf8.Valid(body) {
			body = bytes.ToValidUTF8(body, []byte("\uFFFD"))
		}
		msg, derr := jsonrpc2.DecodeMessage(body)
		if derr == nil {
			if _, ok := msg.(*jsonrpc2.Notification); ok && hasNullID(body) {
				// A request with a null id: the decoder takes it for a
				// notification and it would go unanswered.
				s.answer(jsonrpc2.ID{}, jsonrpc2.Errorf(jsonrpc2.InvalidRequest,
					"a request id may not be null here: use a number or a string (send no id at all for a notification)"))
				continue
			}
			return msg, n, nil
		}
		id, rpcErr := classifyBadFrame(body, derr)
		s.log.Warn("acp: bad frame answered and skipped", "code", int(rpcErr.Code), "error", rpcErr.Message)
		s.answer(id, rpcErr)
	}
}

// classifyBadFrame chooses the answer to a frame jsonrpc2 could not decode:
// -32700 for text that is not JSON, -32600 for a batch or for JSON that is
// not a JSON-RPC message (with its id when it has a usable one).
func classifyBadFrame(body []byte, decodeErr error) (jsonrpc2.ID, *jsonrpc2.Error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return jsonrpc2.ID{}, jsonrpc2.Errorf(jsonrpc2.ParseError, "parse error: %v", err)
	}
	switch obj := v.(type) {
	case []any:
		return jsonrpc2.ID{}, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "JSON-RPC batches are not supported")
	case map[string]any:
		return idOf(obj["id"]), jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "invalid request: %v", decodeErr)
	default:
		return jsonrpc2.ID{}, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "invalid request: a message must be a JSON object, got %s", body)
	}
}

// idOf converts a decoded JSON id into a jsonrpc2.ID; anything but a
// string or an integer gives the null id.
func idOf(v any) jsonrpc2.ID {
	switch id := v.(type) {
	case string:
		return jsonrpc2.NewStringID(id)
	case float64:
		if id == float64(int64(id)) {
			return jsonrpc2.NewNumberID(int64(id))
		}
	}
	return jsonrpc2.ID{}
}

// answer writes an error response for a frame the connection never sees.
// It owes nothing to replies, so it is not marked there.
func (s *ndjsonStream) answer(id jsonrpc2.ID, rpcErr *jsonrpc2.Error) {
	if _, err := s.writeMessage(jsonrpc2.NewResponse(id, nil, rpcErr), false); err != nil {
		s.log.Warn("acp: answering a bad frame failed", "error", err)
	}
}

// Write implements jsonrpc2.Stream: one frame plus '\n' in one Write,
// in turn with every other writer. A response is marked written in
// s.replies once it went out whole.
func (s *ndjsonStream) Write(_ context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.writeMessage(msg, true)
}

// Close implements jsonrpc2.Stream. It closes the reader when it is an
// io.Closer, so a Read blocked on it returns; the writer belongs to the
// caller and stays open.
func (s *ndjsonStream) Close() error {
	var err error
	s.closeOnce.Do(func() {
		if c, ok := s.r.(io.Closer); ok {
			err = c.Close()
		}
	})
	return err
}

// fail records the first terminal error and closes done.
func (s *ndjsonStream) fail(err error) {
	s.failOnce.Do(func() {
		s.err = err
		close(s.done)
	})
}

// formatBytes writes n as "32 MiB" when it is a whole number of MiB.
func formatBytes(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// hasNullID reports whether a frame carries an "id" member whose value is
// null.
func hasNullID(body []byte) bool {
	if !bytes.Contains(body, []byte(`"id"`)) {
		return false
	}
	// A RawMessage sees the literal null (a pointer would be left nil).
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(body, &probe) != nil {
		return false
	}
	return bytes.Equal(bytes.TrimSpace(probe.ID), []byte("null"))
}
