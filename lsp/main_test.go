package lsp_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/goleak"
)

// fakeServerEnv, when set, makes the test binary a fake language server
// instead of running the tests: "hang" never answers initialize; "silent"
// starts but never publishes a diagnostic; "pull" answers pulled
// diagnostics with one error; "env" publishes, for every file opened, one
// error whose message tells the server's environment (envServer);
// "loading-refuse", "loading-hold" and "loading-forever" report that they
// are loading their workspace from initialized on (loadingServer).
const fakeServerEnv = "DSH_ACP_LSP_FAKE_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeServerEnv); mode != "" {
		runFakeServer(mode)
		return
	}
	goleak.VerifyTestMain(m)
}

// runFakeServer serves LSP on stdio until the client goes away.
func runFakeServer(mode string) {
	if mode == "hang" {
		_, _ = os.Stdin.Read(make([]byte, 1)) // reads the request, never answers
		select {}
	}
	var srv protocol.Server = silentServer{}
	env := &envServer{}
	loading := newLoadingServer(mode)
	switch mode {
	case "pull":
		srv = pullServer{}
	case "env":
		srv = env
	case loadingRefuse, loadingHold, loadingForever:
		srv = loading
	}
	_, conn, client := protocol.NewServer(context.Background(), srv, jsonrpc2.NewHeaderStream(stdio{}))
	env.client = client
	loading.connect(client)
	<-conn.Done()
}

// envNames are the variables an envServer tells of.
var envNames = []string{"DSH_API_KEY", "AWS_SECRET_ACCESS_KEY", "PLAIN_SETTING", "CONFIGURED_TOKEN"}

// envServer publishes, for each file opened, one error whose message is
// "NAME=value" (or "NAME unset") for each of envNames, space-separated.
type envServer struct {
	silentServer
	client protocol.Client
}

func (s *envServer) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	var words []string
	for _, name := range envNames {
		if v, ok := os.LookupEnv(name); ok {
			words = append(words, name+"="+v)
		} else {
			words = append(words, name+" unset")
		}
	}
	return s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{
		URI: p.TextDocument.URI, Version: protocol.NewOptional(p.TextDocument.Version),
		Diagnostics: []protocol.Diagnostic{{Severity: protocol.DiagnosticSeverityError, Message: protocol.String(strings.Join(words, " "))}},
	})
}

// silentServer initializes and ignores every notification.
type silentServer struct{ protocol.UnimplementedServer }

func (silentServer) Initialize(context.Context, *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	return &protocol.InitializeResult{}, nil
}

func (silentServer) Shutdown(context.Context) error { return nil }

func (silentServer) Exit(context.Context) error {
	os.Exit(0)
	return nil
}

// pullServer supports pulled diagnostics and reports one error at
// character 8 of the first line of every file.
type pullServer struct{ silentServer }

func (pullServer) Initialize(context.Context, *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	return &protocol.InitializeResult{Capabilities: protocol.ServerCapabilities{DiagnosticProvider: &protocol.DiagnosticOptions{}}}, nil
}

func (pullServer) Diagnostic(context.Context, *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
		Kind: "full",
		Items: []protocol.Diagnostic{{
			Range:    protocol.Range{Start: protocol.Position{Line: 0, Character: 8}},
			Severity: protocol.DiagnosticSeverityError,
			Message:  protocol.String("pulled error"),
		}},
	}}, nil
}

// stdio is the process's standard input and output as one stream.
type stdio struct{}

func (stdio) Read(b []byte) (int, error)  { return os.Stdin.Read(b) }
func (stdio) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdio) Close() error                { return os.Stdin.Close() }
