package bridge

import (
	"errors"
	"fmt"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/mcp"
)

// mcpServers converts the servers an editor sent in session/new (stdio, http
// and sse shapes) to Servers. A server of another shape (the unstable acp
// transport) or with no shape set is left out, and the error names it.
func mcpServers(servers []acp.McpServer) ([]mcp.Server, error) {
	out := make([]mcp.Server, 0, len(servers))
	var errs []error
	for i, s := range servers {
		switch {
		case s.Stdio != nil:
			env := make(map[string]string, len(s.Stdio.Env))
			for _, e := range s.Stdio.Env {
				env[e.Name] = e.Value
			}
			out = append(out, mcp.Server{
				Name: s.Stdio.Name, Command: s.Stdio.Command, Args: append([]string(nil), s.Stdio.Args...),
				Env: env, Transport: mcp.TransportStdio,
			})
		case s.Http != nil:
			out = append(out, mcp.Server{Name: s.Http.Name, URL: s.Http.Url, Headers: mcpHeaders(s.Http.Headers), Transport: mcp.TransportHTTP})
		case s.Sse != nil:
			out = append(out, mcp.Server{Name: s.Sse.Name, URL: s.Sse.Url, Headers: mcpHeaders(s.Sse.Headers), Transport: mcp.TransportSSE})
		case s.Acp != nil:
			errs = append(errs, fmt.Errorf("MCP server %q: the acp transport is not supported; it is left out", s.Acp.Name))
		default:
			errs = append(errs, fmt.Errorf("MCP server %d: no transport given; it is left out", i))
		}
	}
	return out, errors.Join(errs...)
}

func mcpHeaders(hs []acp.HttpHeader) map[string]string {
	m := make(map[string]string, len(hs))
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}
