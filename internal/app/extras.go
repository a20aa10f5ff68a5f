package app

import (
	"context"
	"sync"

	"github.com/dsh-acp/dsh-acp/lsp"
	"github.com/dsh-acp/dsh-acp/mcp"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// notices is what the user should be told (a server that failed), from
// the session's parts, some of which start before the session exists:
// kept until attach gives the session's Tell, then handed on as they
// come. It is safe for concurrent use.
type notices struct {
	mu    sync.Mutex
	items []string
	tell  func(string)
}

func (n *notices) add(text string) {
	n.mu.Lock()
	tell := n.tell
	if tell == nil {
		n.items = append(n.items, text)
	}
	n.mu.Unlock()
	if tell != nil {
		tell(text)
	}
}

// attach hands the notices kept so far, and every later one, to tell.
func (n *notices) attach(tell func(string)) {
	n.mu.Lock()
	items := n.items
	n.items, n.tell = nil, tell
	n.mu.Unlock()
	for _, text := range items {
		tell(text)
	}
}

// mcpSession is a session's MCP servers: connected in the background (a
// server may take seconds to start, and session/new must not wait), their
// tools registered in the session's scope as they come and go.
type mcpSession struct {
	stop func()
	done chan struct{}

	mu       sync.Mutex
	servers  *mcp.Servers
	dispose  func()
	canceled bool
}

// startMCP connects servers for a session whose tools live in scope;
// problems are told through notes. It returns nil when there is no
// server.
func startMCP(servers []mcp.Server, reg *registry.Registry, scope *registry.Scope, opts mcp.Options, notes *notices) *mcpSession {
	if len(servers) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &mcpSession{stop: cancel, done: make(chan struct{})}
	report := opts.Report
	opts.Report = func(server, message string) {
		notes.add("MCP server " + server + ": " + message)
		if report != nil {
			report(server, message)
		}
	}
	go func() {
		defer close(m.done)
		conn := mcp.Connect(ctx, servers, opts)
		dispose, err := conn.Register(reg, scope)
		if err != nil {
			notes.add("MCP tools could not be offered: " + err.Error())
		}
		m.mu.Lock()
		defer m.mu.Unlock()
		m.servers, m.dispose = conn, dispose
		if m.canceled {
			m.closeLocked()
		}
	}()
	return m
}

// close stops connecting and closes every server: no process is left.
func (m *mcpSession) close() {
	if m == nil {
		return
	}
	m.stop()
	m.mu.Lock()
	m.canceled = true
	m.closeLocked()
	m.mu.Unlock()
	<-m.done
}

// closeLocked disposes of the tools and closes the servers; m.mu is held.
func (m *mcpSession) closeLocked() {
	if m.dispose != nil {
		m.dispose()
		m.dispose = nil
	}
	if m.servers != nil {
		m.servers.Close()
		m.servers = nil
	}
}

// languageServers starts a session's language-server client when the
// configuration asks for one: nothing runs until a file of a server's type
// is touched. A server turned off for the session is told through report.
func languageServers(enabled bool, roots []string, servers []lsp.ServerConfig, files workspace.FileSystem, cfg Config, report func(string)) *lsp.Manager {
	if !enabled {
		return nil
	}
	return lsp.New(lsp.Options{Roots: roots, Servers: servers, Logger: cfg.Logger, ReadFile: files.ReadFile,
		EnvAllow: cfg.Shell.EnvAllow, Report: report})
}
