package acp

import (
	"context"
	"errors"
	"fmt"
	"io"

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
func Serve(ctx context.Context, r io.Reader, w io.Writer, newAgent func(*Conn) Agent, opts Options) error {
	opts = opts.withDefaults()
	log := opts.Logger

	stream := newNDJSONStream(r, w, opts.MaxLineBytes, log)
	rpc := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(stdCodec{}))
	agent := newAgent(&Conn{rpc: rpc})
	if agent == nil {
		return errors.New("acp: Serve: newAgent returned a nil Agent")
	}
	d := newDispatcher(agent, log)

	serveCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	rpc.Go(serveCtx, d.handle)

	var err error
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
		log.Info("acp: serve context cancelled; cancelling in-flight requests", "cause", context.Cause(ctx))
	}
	if cerr := rpc.Close(); cerr != nil && !errors.Is(cerr, io.ErrClosedPipe) {
		log.Debug("acp: closing the stream", "error", cerr)
	}
	return err
}
