//go:build linux

package mcp

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/registry"
)

// BenchmarkCall compares an echo call through a session's pipeline (policy
// left out), the registry tool's body alone, and the same call made
// directly with the SDK client, against
// the test server over streamable HTTP (in process) and over stdio (the
// test binary re-executed). The difference is what dsh-acp adds per call.
func BenchmarkCall(b *testing.B) {
	httpCfg, _, _ := httpServer(b, "web")
	for _, tr := range []struct {
		name string
		cfg  Server
	}{
		{"http", httpCfg},
		{"stdio", stdioServer("local", nil)},
	} {
		b.Run(tr.name+"/pipeline", func(b *testing.B) {
			s := newSession(b, []Server{tr.cfg}, Options{})
			name := "mcp__" + tr.cfg.Name + "__echo"
			b.ReportAllocs()
			for b.Loop() {
				if r := s.mustCall(name, `{"text":"hi"}`); r.IsError {
					b.Fatal(r.Content)
				}
			}
		})
		b.Run(tr.name+"/tool", func(b *testing.B) {
			s := newSession(b, []Server{tr.cfg}, Options{})
			name := "mcp__" + tr.cfg.Name + "__echo"
			args, err := registry.MaterializeArguments(`{"text":"hi"}`)
			if err != nil {
				b.Fatal(err)
			}
			bound, err := s.reg.Get(name, s.scope).Bind(args)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bound.Run(ctx, registry.NewCall(registry.CallSpec{ID: "1", Name: name, Bound: bound})); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tr.name+"/direct", func(b *testing.B) {
			session := directSession(b, tr.cfg)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if r, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}); err != nil || r.IsError {
					b.Fatal(err)
				}
			}
		})
	}
}

// directSession connects the SDK client to cfg without this package.
func directSession(b *testing.B, cfg Server) *sdk.ClientSession {
	b.Helper()
	var transport sdk.Transport = &sdk.StreamableClientTransport{Endpoint: cfg.URL}
	var proc *process
	if cfg.Command != "" {
		p, t, err := newProcess(cfg, nil) // only to start the helper in its own group, killed below
		if err != nil {
			b.Fatal(err)
		}
		proc, transport = p, t
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(context.Background(), transport, nil)
	if proc != nil {
		proc.started()
		b.Cleanup(proc.release)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = session.Close() })
	return session
}
