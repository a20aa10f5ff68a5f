package mcp

import (
	"fmt"
	"log/slog"
	"time"
)

// The transports a Server may use.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
)

// Server is one MCP server to connect to: a command to run (stdio) or a URL
// to reach (streamable HTTP or SSE).
type Server struct {
	// Name identifies the server in tool names and reports.
	Name string
	// Command, Args and Env start a stdio server. Its environment is the
	// agent's without secrets (secrets.Withheld: the model keys never,
	// other secret-looking names unless Options.EnvAllow lets them
	// through), with Env on top: what Env names always passes.
	Command string
	Args    []string
	Env     map[string]string
	// Dir is a stdio server's working directory; "" means the agent's.
	Dir string
	// URL and Headers reach an HTTP or SSE server; every request carries
	// the headers.
	URL     string
	Headers map[string]string
	// Transport is "stdio", "http" or "sse"; "" means stdio when Command is
	// set and http otherwise.
	Transport string
}

// transport returns the server's transport, inferring it when unset, or
// an error when the fields do not fit it.
func (s Server) transport() (string, error) {
	t := s.Transport
	if t == "" {
		t = TransportHTTP
		if s.Command != "" {
			t = TransportStdio
		}
	}
	switch t {
	case TransportStdio:
		if s.Command == "" {
			return "", fmt.Errorf("a stdio server needs a command")
		}
	case TransportHTTP, TransportSSE:
		if s.URL == "" {
			return "", fmt.Errorf("an %s server needs a url", t)
		}
	default:
		return "", fmt.Errorf("unknown transport %q (want stdio, http or sse)", t)
	}
	return t, nil
}

// DefaultConnectTimeout bounds how long Connect waits for one server to
// start, initialize and list its tools when Options.ConnectTimeout is 0.
const DefaultConnectTimeout = 30 * time.Second

// Options configure Connect.
type Options struct {
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Report receives the problems the user should see: a server that
	// failed to start or stopped, with its error and stderr tail. It may
	// be called from any goroutine; nil drops the reports.
	Report func(server, message string)
	// CallTimeout is each tool's time budget (registry timeout); 0 means
	// none.
	CallTimeout time.Duration
	// ConnectTimeout bounds each server's start; 0 means
	// DefaultConnectTimeout.
	ConnectTimeout time.Duration
	// EnvAllow lets secret-looking variables of the agent's environment
	// into stdio servers' environments: names or path.Match patterns,
	// matched case-insensitively (see secrets.ParseAllow). The agent's
	// model keys are never let through.
	EnvAllow []string
}

func (o Options) logger() *slog.Logger {
	if o.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return o.Logger
}

func (o Options) report(server, message string) {
	if o.Report != nil {
		o.Report(server, message)
	}
}

func (o Options) connectTimeout() time.Duration {
	if o.ConnectTimeout <= 0 {
		return DefaultConnectTimeout
	}
	return o.ConnectTimeout
}
