package acptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
)

// ErrClosed is returned by calls on a Client whose connection has ended.
var ErrClosed = errors.New("acptest: connection closed")

// ServeFunc runs an ACP server that reads the client's frames from r and
// writes its own to w, until r reaches EOF; acp.Serve with an agent is
// one.
type ServeFunc func(ctx context.Context, r io.Reader, w io.Writer) error

// RequestHandler answers a request the server sends to the client. The
// result is encoded with encoding/json; a json.RawMessage goes on the wire
// verbatim, so a test can answer with anything. An *RPCError is sent as
// that error, any other error as -32603.
type RequestHandler func(ctx context.Context, params json.RawMessage) (any, error)

// Option configures a Client.
type Option func(*config)

type config struct {
	schema       *Schema
	logger       *slog.Logger
	closeTimeout time.Duration
}

// WithSchema shares an already loaded Schema (loading takes ~0.1 s).
func WithSchema(s *Schema) Option { return func(c *config) { c.schema = s } }

// WithLogger gives acp.Serve a logger (NewClient only); logs are
// discarded by default.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// defaultCloseTimeout guards Close against a server that never returns. It
// is a hang guard, not a timing assertion: generous enough for a loaded
// machine running the race detector.
const defaultCloseTimeout = 2 * time.Minute

// WithCloseTimeout bounds how long Close waits for the server to return
// after its input ends (default 2 minutes, a guard against hangs).
func WithCloseTimeout(d time.Duration) Option { return func(c *config) { c.closeTimeout = d } }

// Client is an in-process ACP client connected to a server over io.Pipes.
// It sends typed requests (Call) and raw lines (SendRaw), answers the
// server's requests with the handlers a test installs, records every
// frame the server writes, and validates each one: every line must be one
// JSON-RPC 2.0 message, and requests, notifications, results and errors
// must match their definitions in the ACP schema. A violation fails the
// test (t.Errorf).
//
// Close ends the connection and waits for the server and every goroutine
// the Client started; it is also registered with t.Cleanup.
type Client struct {
	t      testing.TB
	schema *Schema

	in        *io.PipeWriter // the client's frames → the server's r
	serverOut *io.PipeWriter // the server's w
	wmu       sync.Mutex     // one line per write to in

	ctx    context.Context // cancelled on Close: handlers and the server
	cancel context.CancelFunc

	serveDone chan struct{}
	serveErr  error
	readDone  chan struct{}
	handlers  sync.WaitGroup
	closeOnce sync.Once
	closeTO   time.Duration

	mu      sync.Mutex
	changed chan struct{} // closed and replaced whenever frames grows
	frames  []Frame
	taken   map[int]bool              // frames WaitFrame already returned
	sent    map[string][]string       // id → methods of the requests the client sent with it, oldest first
	pending map[string]chan Frame     // id → the Call waiting for it
	handle  map[string]RequestHandler // method → handler of server requests
	// caps are the members of clientCapabilities of the last initialize
	// request the client sent.
	caps     map[string]json.RawMessage
	nextID   int64
	closeErr error
}

// NewClient serves newAgent with acp.Serve and connects a Client to it.
func NewClient(t testing.TB, newAgent func(*acp.Conn) acp.Agent, opts ...Option) *Client {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	logger := cfg.logger
	return Connect(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		return acp.Serve(ctx, r, w, newAgent, acp.Options{Logger: logger})
	}, opts...)
}

// Connect runs serve in a goroutine and connects a Client to it.
func Connect(t testing.TB, serve ServeFunc, opts ...Option) *Client {
	t.Helper()
	cfg := config{closeTimeout: defaultCloseTimeout}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.schema == nil {
		cfg.schema = LoadSchema(t)
	}
	serverIn, clientOut := io.Pipe()
	clientIn, serverOut := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{
		t: t, schema: cfg.schema,
		in: clientOut, serverOut: serverOut,
		ctx: ctx, cancel: cancel,
		serveDone: make(chan struct{}), readDone: make(chan struct{}),
		closeTO: cfg.closeTimeout,
		changed: make(chan struct{}),
		taken:   map[int]bool{}, sent: map[string][]string{},
		pending: map[string]chan Frame{}, handle: map[string]RequestHandler{},
	}
	go func() {
		defer close(c.serveDone)
		c.serveErr = serve(ctx, serverIn, serverOut)
	}()
	go c.readLoop(clientIn)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("acptest: closing the client: %v", err)
		}
	})
	return c
}

// Schema is the schema the Client validates against.
func (c *Client) Schema() *Schema { return c.schema }

// Call sends a request and waits for its answer. params is encoded with
// encoding/json (a json.RawMessage verbatim; nil sends no params). A
// result is decoded into result when it is non-nil; an error answer is
// returned as an *RPCError.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	var rawParams json.RawMessage
	if params != nil {
		var err error
		if rawParams, err = marshal(params); err != nil {
			return fmt.Errorf("acptest: encoding %s params: %w", method, err)
		}
	}
	c.mu.Lock()
	c.nextID++
	id := strconv.FormatInt(c.nextID, 10)
	ch := make(chan Frame, 1)
	c.pending[id] = ch
	c.sent[id] = append(c.sent[id], method)
	c.noteRequest(method, rawParams)
	c.mu.Unlock()

	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", json.RawMessage(id), method, rawParams}
	if err := c.writeJSON(msg); err != nil {
		c.forget(id)
		return err
	}
	select {
	case f := <-ch:
		if f.Error != nil {
			return f.Error
		}
		if result != nil {
			if err := json.Unmarshal(f.Result, result); err != nil {
				return fmt.Errorf("acptest: decoding the %s result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return ctx.Err()
	case <-c.readDone:
		c.forget(id)
		return fmt.Errorf("acptest: %s: %w", method, ErrClosed)
	}
}

// noteRequest keeps what an initialize request advertises; c.mu is
// held.
func (c *Client) noteRequest(method string, params json.RawMessage) {
	if method != "initialize" {
		return
	}
	var req struct {
		ClientCapabilities map[string]json.RawMessage `json:"clientCapabilities"`
	}
	_ = json.Unmarshal(params, &req)
	c.caps = req.ClientCapabilities
}

// advertised reports whether the client's initialize request gave
// clientCapabilities.feature as an object (the way a client advertises an
// unstable feature; null or absent advertises nothing).
func (c *Client) advertised(feature string) bool {
	c.mu.Lock()
	raw := bytes.TrimSpace(c.caps[feature])
	c.mu.Unlock()
	return len(raw) > 0 && raw[0] == '{'
}

// forget drops a Call that will not wait for its answer.
func (c *Client) forget(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	msg := struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params}
	return c.writeJSON(msg)
}

// SendRaw writes line and a '\n' to the server as is, for bad-input
// tests. When line is a request the Client can read (an object with an
// id), its answer is validated by its method like any other. The id and
// method of a line over 1 MiB are read from the members before its first
// large value, so a huge request keeps its id when "id" comes first.
//
// Sending an id again while it is in flight is allowed (a test of how the
// server treats duplicates); its answers are matched to the requests in
// the order they were sent, so reuse the method too.
func (c *Client) SendRaw(line string) error {
	if id, method, ok := requestHead(line); ok {
		c.mu.Lock()
		c.sent[id] = append(c.sent[id], method)
		if method == "initialize" {
			var req struct {
				Params json.RawMessage `json:"params"`
			}
			_ = json.Unmarshal([]byte(line), &req)
			c.noteRequest(method, req.Params)
		}
		c.mu.Unlock()
	}
	return c.writeLine([]byte(line))
}

// Handle installs the handler for requests the server sends with method,
// replacing any earlier one. Without a handler the Client answers -32601.
func (c *Client) Handle(method string, h RequestHandler) {
	c.mu.Lock()
	c.handle[method] = h
	c.mu.Unlock()
}

// writeJSON encodes v as one line and sends it.
func (c *Client) writeJSON(v any) error {
	b, err := marshal(v)
	if err != nil {
		return fmt.Errorf("acptest: encoding a frame: %w", err)
	}
	return c.writeLine(b)
}

// writeLine sends one line to the server.
func (c *Client) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.in.Write(append(b[:len(b):len(b)], '\n')); err != nil {
		return fmt.Errorf("acptest: writing to the server: %w", err)
	}
	return nil
}

// Close ends the client's output (the server sees EOF), waits for the
// server to return, then for every goroutine the Client started. It
// returns the server's error (nil on a clean shutdown). Later calls
// return the same.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		_ = c.in.Close()
		var err error
		select {
		case <-c.serveDone:
			err = c.serveErr
		case <-time.After(c.closeTO):
			c.cancel()
			<-c.serveDone
			err = fmt.Errorf("acptest: the server did not return within %v of EOF (returned %v after its context was cancelled)", c.closeTO, c.serveErr)
		}
		_ = c.serverOut.Close()
		<-c.readDone
		c.cancel()
		handlersDone := make(chan struct{})
		go func() {
			c.handlers.Wait()
			close(handlersDone)
		}()
		select {
		case <-handlersDone:
		case <-time.After(c.closeTO):
			err = errors.Join(err, fmt.Errorf("acptest: a request handler did not return within %v of the end of the connection", c.closeTO))
		}
		c.mu.Lock()
		c.closeErr = err
		c.mu.Unlock()
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeErr
}

// marshal encodes v compactly without HTML escaping; a json.RawMessage
// passes verbatim.
func marshal(v any) ([]byte, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// readLoop reads the server's output until it ends.
func (c *Client) readLoop(r io.Reader) {
	defer close(c.readDone)
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			c.receive(bytes.TrimSuffix(line, []byte{'\n'}), err == nil)
		}
		if err != nil {
			return
		}
	}
}
