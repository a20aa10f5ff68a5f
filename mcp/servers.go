package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/registry"
)

// Servers are a session's connected MCP servers. Its methods are safe for
// concurrent use.
type Servers struct {
	opts  Options
	conns []*conn // the servers that connected, in the order given

	background context.Context // ends with Close
	stop       context.CancelFunc
	wg         sync.WaitGroup // goroutines that end with Close

	mu       sync.Mutex
	onChange []func()
	closed   bool
}

// Connect starts and initializes servers in parallel and lists their tools.
// A server that fails (a bad config, a command that cannot start, an
// initialize or listing error, or no answer within the connect timeout) is
// reported through opts.Report with the error and its stderr tail and left
// out. Connect returns when every server has connected or failed; the
// servers run until Close, independent of ctx.
func Connect(ctx context.Context, servers []Server, opts Options) *Servers {
	bg, stop := context.WithCancel(context.WithoutCancel(ctx))
	s := &Servers{opts: opts, background: bg, stop: stop}
	conns := make([]*conn, len(servers))
	var wg sync.WaitGroup
	for i, cfg := range servers {
		wg.Go(func() {
			c, err := s.connect(ctx, cfg)
			if err != nil {
				s.opts.logger().Warn("mcp server failed to start", "server", cfg.Name, "err", err)
				s.opts.report(cfg.Name, err.Error())
				return
			}
			conns[i] = c
		})
	}
	wg.Wait()
	for _, c := range conns {
		if c != nil {
			s.conns = append(s.conns, c)
			s.watch(c)
		}
	}
	return s
}

// connect starts one server and lists its tools.
func (s *Servers) connect(ctx context.Context, cfg Server) (*conn, error) {
	kind, err := cfg.transport()
	if err != nil {
		return nil, fmt.Errorf("MCP server %q: %w", cfg.Name, err)
	}
	life, endLife := context.WithCancel(s.background)
	c := &conn{cfg: cfg, endLife: endLife}
	client := sdk.NewClient(&sdk.Implementation{Name: "dsh-acp", Version: "1"}, &sdk.ClientOptions{
		Logger:                 s.opts.Logger,
		Capabilities:           &sdk.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { s.relist(c) },
	})
	var transport sdk.Transport
	if kind == TransportStdio {
		proc, t, err := newProcess(cfg, s.opts.EnvAllow)
		if err != nil {
			return nil, fmt.Errorf("MCP server %q: %w", cfg.Name, err)
		}
		c.proc, transport = proc, t
	} else {
		transport = lifetimeTransport{inner: httpTransport(cfg, kind), life: life, cancel: endLife}
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.connectTimeout())
	defer cancel()
	session, err := client.Connect(ctx, transport, nil)
	if c.proc != nil {
		c.proc.started()
	}
	if err != nil {
		return nil, c.failure("failed to start", err)
	}
	c.mu.Lock()
	c.session = session
	c.mu.Unlock()
	tools, err := listTools(ctx, session)
	if err != nil {
		_ = session.Close()
		return nil, c.failure("failed to list its tools", err)
	}
	c.setTools(tools)
	return c, nil
}

// Tools returns one raw tool for each tool of every running server, named
// by ToolName (made unique with a "_2", "_3", … suffix), in the servers'
// order and then each server's listing order. A tool whose input schema is
// not lossless JSON is logged and left out.
func (s *Servers) Tools() []*registry.Tool {
	built := s.build()
	out := make([]*registry.Tool, len(built))
	for i, b := range built {
		out[i] = b.tool
	}
	return out
}

// builtTool is a tool Tools returns, with a key that changes whenever the
// tool would act differently: another server or remote tool behind the
// name, another description or schema.
type builtTool struct {
	tool *registry.Tool
	key  string
}

func (s *Servers) build() []builtTool {
	taken := make(map[string]bool)
	var out []builtTool
	for i, c := range s.conns {
		for _, t := range c.listed() {
			tool, err := defineTool(c, uniqueName(taken, c.cfg.Name, t.Name), t, s.opts.CallTimeout, s.opts.logger())
			if err != nil {
				s.opts.logger().Warn("mcp tool left out", "server", c.cfg.Name, "tool", t.Name, "err", err)
				continue
			}
			key := fmt.Sprintf("%d\x00%s\x00%s\x00%s", i, t.Name, tool.Description(), tool.Parameters())
			out = append(out, builtTool{tool: tool, key: key})
		}
	}
	return out
}

// Close stops every server: a stdio server's stdin is closed, and after a
// grace period its whole process group is killed; an HTTP session is
// ended. No server process and no goroutine of s is left when Close
// returns. Calls still running fail. Close returns the errors closing the
// sessions reported, other than a stopped process's exit status.
func (s *Servers) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	errs := make([]error, len(s.conns))
	var wg sync.WaitGroup
	for i, c := range s.conns {
		wg.Go(func() { errs[i] = c.close() })
	}
	wg.Wait()
	s.stop()
	s.wg.Wait()
	return errors.Join(errs...)
}
