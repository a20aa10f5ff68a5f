package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// Serve runs one ACP connection: it reads the client's frames from r (the
// agent's stdin), answers on w (its stdout) and calls the Agent that
// newAgent builds. newAgent is called once, before any message is read,
// with the Conn through which the agent calls the client.
//
// Only frames are ever written to w; diagnostics go to opts.Logger. Bad
// input is answered and skipped (see DefaultMaxLineBytes and the Agent
// contract); it never ends the connection.
//
// Serve returns when r reaches EOF or fails, when a write to w fails, or
// when ctx is cancelled. Either way it first cancels every in-flight
// handler's context (with cause ErrDisconnected when the client's stream
// ended) and waits for the handlers to return. It returns nil on a clean
// EOF, ctx.Err() when ctx was cancelled, and the I/O error otherwise. On
// cancellation it closes r if r is an io.Closer, so a blocked read ends;
// it never closes w.
//
// When ctx is cancelled the client is still there, so Serve answers before
// it closes: every request it has begun to serve is answered on w before
// Serve returns, whether its handler had returned already or returns while
// Serve waits, unless a write to w fails or opts.ShutdownGrace runs out
// first. A request read meanwhile is answered -32603 ("shutting down")
// without reaching the Agent. After the client's stream ended (EOF),
// answers not yet written are dropped: nobody is left to read them.
//
// The grace also bounds writes blocked on a client that stopped reading:
// once it runs out, every write still under way or to come fails at once
// (the Conn call or the answer waiting on it gets an error), so such a
// client cannot hold the shutdown. An abandoned Write to w may still be
// blocked after Serve returns; it ends when w is closed.
func Serve(ctx context.Context, r io.Reader, w io.Writer, newAgent func(*Conn) Agent, opts Options) error {
	opts = opts.withDefaults()
	log := opts.Logger

	owed := newReplies()
	stream := newNDJSONStream(r, w, opts.MaxLineBytes, log, owed)
	stream.redact = opts.Redactor
	rpc := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(stdCodec{}))
	agent := newAgent(&Conn{rpc: rpc})
	if agent == nil {
		return errors.New("acp: Serve: newAgent returned a nil Agent")
	}
	d := newDispatcher(agent, log, owed)

	serveCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rpc.Go(serveCtx, d.handle)

	var err error
	drain := false
	select {
	case <-stream.done:
		if !errors.Is(stream.err, io.EOF) {
			err = fmt.Errorf("acp: connection failed: %w", stream.err)
		}
		log.Info("acp: client stream ended; cancelling in-flight requests", "error", stream.err)
		cancel(ErrDisconnected)
	case <-rpc.Done():
		err = rpc.Err()
	case <-ctx.Done():
		err = ctx.Err()
		d.stop()
		drain = true
		log.Info("acp: serve context cancelled; cancelling in-flight requests", "cause", context.Cause(ctx))
	}
	closeConn(rpc, stream, owed, drain, opts.ShutdownGrace, log)
	return err
}

// closeConn closes the connection within grace of the client's side.
// When drain is set it first waits until no answer is owed, a write has
// failed or grace ran out: jsonrpc2's Close refuses every write once it
// began. Then Close waits for every handler to return; a handler blocked
// writing to a client that stopped reading is freed when grace runs out
// and the stream abandons its writes.
func closeConn(rpc jsonrpc2.Conn, stream *ndjsonStream, owed *replies, drain bool, grace time.Duration, log *slog.Logger) {
	expiry := time.AfterFunc(grace, stream.abandonWrites)
	defer expiry.Stop()
	if drain {
		select {
		case <-owed.drained():
			log.Debug("acp: every answer owed was written")
		case <-stream.done:
			log.Info("acp: the stream failed before every answer was written", "error", stream.err, "unwritten", owed.owed())
		case <-stream.abandoned:
			log.Warn("acp: the shutdown grace ran out before every answer was written; the client is not reading or a handler did not return",
				"unwritten", owed.owed(), "grace", grace)
		}
	}
	if cerr := rpc.Close(); cerr != nil && !errors.Is(cerr, io.ErrClosedPipe) {
		log.Debug("acp: closing the stream", "error", cerr)
	}
}
