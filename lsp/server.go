package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// server is one running language server for one workspace root.
type server struct {
	cfg    ServerConfig
	root   string
	proc   *process
	conn   jsonrpc2.Conn
	remote protocol.Server
	cancel context.CancelFunc
	diags  *diagStore
	work   *work // what the server reports it is busy with
	pull   bool  // the server answers textDocument/diagnostic

	mu   sync.Mutex
	docs map[string]*document // the files opened on the server, by absolute path
}

// document is a file as the server knows it.
type document struct {
	version int32
	text    string
}

// startServer runs cfg's program for root and initializes it, within
// timeout. The program's environment is the agent's without the secrets
// the rule withholds (envAllow may let some through), with cfg.Env on top.
func startServer(ctx context.Context, cfg ServerConfig, root string, envAllow []string, log *slog.Logger, timeout time.Duration) (*server, error) {
	proc, err := startProcess(cfg.Command, root, secrets.ServerEnviron(os.Environ(), envAllow, cfg.Env))
	if err != nil {
		return nil, err
	}
	folders := []protocol.WorkspaceFolder{{URI: uri.File(root), Name: filepath.Base(root)}}
	s := &server{cfg: cfg, root: root, proc: proc, diags: newDiagStore(), work: newWork(), docs: map[string]*document{}}
	c := &client{name: cfg.Name, roots: folders, diags: s.diags, work: s.work, log: log}
	connCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	_, s.conn, s.remote = protocol.NewClient(connCtx, c, jsonrpc2.NewHeaderStream(proc))

	ictx, icancel := context.WithTimeout(ctx, timeout)
	defer icancel()
	res, err := s.remote.Initialize(ictx, initializeParams(root, folders))
	if err == nil {
		err = s.remote.Initialized(ictx, &protocol.InitializedParams{})
	}
	if err != nil {
		s.kill()
		if ictx.Err() != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("%s did not start within %s", cfg.Name, timeout)
		}
		return nil, fmt.Errorf("initialize %s: %w%s", cfg.Name, err, stderrTail(proc))
	}
	s.pull = res.Capabilities.DiagnosticProvider != nil
	return s, nil
}

// initializeParams are the client's side of the handshake: one workspace
// folder, UTF-16 positions, versioned published diagnostics and pulled
// ones, and work-done progress (how a server says it is still loading).
func initializeParams(root string, folders []protocol.WorkspaceFolder) *protocol.InitializeParams {
	yes := true
	pid := int32(os.Getpid()) //nolint:gosec // process ids fit
	rootURI := uri.File(root)
	p := &protocol.InitializeParams{
		ProcessID:  &pid,
		ClientInfo: protocol.ClientInfo{Name: "dsh-acp"},
		RootURI:    &rootURI,
		Capabilities: protocol.ClientCapabilities{
			Workspace: &protocol.WorkspaceClientCapabilities{WorkspaceFolders: &yes, Configuration: &yes},
			TextDocument: &protocol.TextDocumentClientCapabilities{
				Synchronization:    &protocol.TextDocumentSyncClientCapabilities{DidSave: &yes},
				PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &yes},
				Diagnostic:         &protocol.DiagnosticClientCapabilities{},
			},
			Window: &protocol.WindowClientCapabilities{WorkDoneProgress: &yes},
			General: &protocol.GeneralClientCapabilities{
				PositionEncodings: []protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF16},
			},
		},
	}
	p.WorkspaceFolders = protocol.NewNullable(folders)
	return p
}

// dead is closed when the server's connection has ended (the program
// exited or its pipes broke).
func (s *server) dead() <-chan struct{} { return s.conn.Done() }

// alive reports whether the server is still running.
func (s *server) alive() bool {
	select {
	case <-s.conn.Done():
		return false
	case <-s.proc.exited:
		return false
	default:
		return true
	}
}

// sync makes the server hold text for path: didOpen on first touch,
// didChange with the full text when it differs, and didSave when save is
// set. It returns the document version the server now has and the number
// of the file's last publication before the change.
func (s *server) sync(ctx context.Context, path, text string, save bool) (version int32, since uint64, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	before, _ := s.diags.get(path)
	since = before.seq
	id := protocol.TextDocumentIdentifier{URI: uri.File(path)}
	doc, open := s.docs[path]
	switch {
	case !open:
		doc = &document{version: 1, text: text}
		err = s.remote.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: id.URI, LanguageID: protocol.LanguageKind(languageID(s.cfg, strings.ToLower(filepath.Ext(path)))),
			Version: doc.version, Text: text,
		}})
		if err == nil {
			s.docs[path] = doc
		}
	case doc.text != text:
		doc.version++
		doc.text = text
		err = s.remote.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: id, Version: doc.version},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}},
		})
	}
	if err == nil && save {
		err = s.remote.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: id})
	}
	if err != nil {
		return 0, 0, fmt.Errorf("sync %s with %s: %w", path, s.cfg.Name, err)
	}
	return doc.version, since, nil
}

// text returns the text the server holds for path, and whether it is open.
func (s *server) text(path string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc, ok := s.docs[path]
	if !ok {
		return "", false
	}
	return doc.text, true
}

// diagnostics returns path's diagnostics for version: pulled when the
// server supports it, otherwise the next publication for that version.
// ok is false when ctx ended first; the diagnostics are then the latest
// known.
func (s *server) diagnostics(ctx context.Context, path string, version int32, since uint64) (diags []protocol.Diagnostic, ok bool) {
	if s.pull {
		report, err := s.remote.Diagnostic(ctx, &protocol.DocumentDiagnosticParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)},
		})
		if full, isFull := report.(*protocol.RelatedFullDocumentDiagnosticReport); err == nil && isFull {
			s.diags.publish(path, version, full.Items) // what the next change is compared with
			return full.Items, true
		}
		// An unchanged report or a failed pull: fall back to publications.
	}
	return s.diags.wait(ctx, path, version, since)
}

// stop ends the server: shutdown and exit when it answers quickly, then
// its process group is killed and reaped.
func (s *server) stop() {
	if s.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		if err := s.remote.Shutdown(ctx); err == nil {
			_ = s.remote.Exit(ctx)
		}
		cancel()
		select {
		case <-s.proc.exited:
		case <-time.After(shutdownGrace):
		}
	}
	s.kill()
}

// kill kills the server's process group at once and waits until the
// process is reaped and the connection has ended.
func (s *server) kill() {
	s.proc.kill()
	s.cancel()
	_ = s.conn.Close()
	_ = s.proc.Close()
	<-s.proc.exited
	<-s.conn.Done()
}

// stderrTail is the last line the server wrote to stderr, as an error
// suffix, or "".
func stderrTail(p *process) string {
	tail := strings.TrimSpace(p.stderr.String())
	if tail == "" {
		return ""
	}
	if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	return " (stderr: " + tail + ")"
}

// shutdownGrace bounds each step of a polite stop: the shutdown request,
// then the wait for the program to exit, before it is killed.
const shutdownGrace = 2 * time.Second

// errStopped is the error of a request to a server that has stopped.
var errStopped = errors.New("language server stopped")
