package mcp

import (
	"context"
	"fmt"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport returns the SDK transport for an http or sse server whose
// requests carry cfg.Headers.
func httpTransport(cfg Server, kind string) sdk.Transport {
	client := &http.Client{Transport: headerRoundTripper{headers: cfg.Headers, next: http.DefaultTransport}}
	if kind == TransportSSE {
		return &sdk.SSEClientTransport{Endpoint: cfg.URL, HTTPClient: client}
	}
	return &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: client}
}

// headerRoundTripper adds fixed headers to every request.
type headerRoundTripper struct {
	headers map[string]string
	next    http.RoundTripper
}

// RoundTrip sends a copy of req carrying the headers.
func (h headerRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	return h.next.RoundTrip(req)
}

// lifetimeTransport connects inner under life, a context that lasts as
// long as the connection, rather than under the connect timeout: the SSE
// transport ties its event stream to the context it connects with. The
// connect context still bounds the attempt: ending it before Connect
// returns cancels life, and the attempt fails.
type lifetimeTransport struct {
	inner  sdk.Transport
	life   context.Context
	cancel context.CancelFunc
}

// Connect connects inner under the connection's lifetime.
func (t lifetimeTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	stop := context.AfterFunc(ctx, t.cancel)
	conn, err := t.inner.Connect(t.life)
	if !stop() {
		if conn != nil {
			_ = conn.Close()
		}
		return nil, fmt.Errorf("connect: %w", ctx.Err())
	}
	return conn, err
}
