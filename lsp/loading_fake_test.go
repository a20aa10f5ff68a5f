package lsp_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The modes of loadingServer.
const (
	// loadingRefuse refuses every request while it loads (as servers
	// answer ContentModified while indexing), ends its load right after
	// the first refusal, and answers from then on.
	loadingRefuse = "loading-refuse"
	// loadingHold holds every request for fakeLoadTime from the first
	// one, far longer than the call timeout the tests give the client,
	// and answers while its load is still in progress.
	loadingHold = "loading-hold"
	// loadingForever never ends its load and never answers a request.
	loadingForever = "loading-forever"
)

// fakeLoadTime is how long a loadingHold server holds requests: a
// hundred times the call timeout its tests give the client, so a client
// that counted the load against that timeout gives up first. No test
// waits for it to pass.
const fakeLoadTime = 100 * fakeCallTimeout

// fakeCallTimeout is the call timeout the loading tests give the client.
const fakeCallTimeout = 2 * time.Millisecond

// loadingServer begins work-done progress "Setting up workspace" when the
// client says initialized, as gopls does while it loads its packages,
// and answers definition, references and symbols with the symbol at
// a.go:1:9 as its mode allows.
type loadingServer struct {
	silentServer
	mode    string
	client  protocol.Client
	hasPeer chan struct{} // closed once client is set

	mu       sync.Mutex
	root     uri.URI
	loaded   bool
	answered chan struct{} // loadingHold: closed once requests are answered
	holding  bool
}

func newLoadingServer(mode string) *loadingServer {
	return &loadingServer{mode: mode, answered: make(chan struct{}), hasPeer: make(chan struct{})}
}

// connect sets the client the server reports to. The connection serves
// before it hands out its client, so the handlers wait for it (peer).
func (s *loadingServer) connect(c protocol.Client) {
	s.client = c
	close(s.hasPeer)
}

// peer returns the client, once connect has set it.
func (s *loadingServer) peer() protocol.Client {
	<-s.hasPeer
	return s.client
}

// loadToken is the token of the fake's load.
const loadToken = protocol.String("load")

func (s *loadingServer) Initialize(_ context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.RootURI != nil {
		s.root = *p.RootURI
	}
	return &protocol.InitializeResult{}, nil
}

func (s *loadingServer) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	if err := s.peer().WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: loadToken}); err != nil {
		return err
	}
	message := "Loading packages..."
	return s.progress(ctx, protocol.WorkDoneProgressBegin{Kind: "begin", Title: "Setting up workspace", Message: &message})
}

// progress reports value on the load's token.
func (s *loadingServer) progress(ctx context.Context, value any) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return s.peer().Progress(ctx, &protocol.ProgressParams{Token: loadToken, Value: raw})
}

// answer waits until the mode lets a request be answered; it returns an
// error to answer instead.
func (s *loadingServer) answer(ctx context.Context) error {
	switch s.mode {
	case loadingRefuse:
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.loaded {
			return nil
		}
		s.loaded = true
		message := "Finished loading packages."
		if err := s.progress(ctx, protocol.WorkDoneProgressEnd{Kind: "end", Message: &message}); err != nil {
			return err
		}
		return jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesContentModified), "still loading the workspace")
	case loadingHold:
		s.mu.Lock()
		if !s.holding {
			s.holding = true
			time.AfterFunc(fakeLoadTime, func() { close(s.answered) })
		}
		s.mu.Unlock()
		select {
		case <-s.answered:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	default: // loadingForever
		<-ctx.Done()
		return ctx.Err()
	}
}

// theSymbol is where the fake's one symbol is: line 1, column 9 of file.
func theSymbol(file uri.URI) protocol.Location {
	return protocol.Location{URI: file, Range: protocol.Range{Start: protocol.Position{Line: 0, Character: 8}}}
}

func (s *loadingServer) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	if err := s.answer(ctx); err != nil {
		return nil, err
	}
	l := theSymbol(p.TextDocument.URI)
	return &l, nil
}

func (s *loadingServer) References(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	if err := s.answer(ctx); err != nil {
		return nil, err
	}
	return []protocol.Location{theSymbol(p.TextDocument.URI)}, nil
}

func (s *loadingServer) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	if err := s.answer(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	file := uri.File(filepath.Join(s.root.FsPath(), "a.go"))
	s.mu.Unlock()
	return protocol.SymbolInformationSlice{{
		BaseSymbolInformation: protocol.BaseSymbolInformation{Name: p.Query, Kind: protocol.SymbolKindFunction},
		Location:              theSymbol(file),
	}}, nil
}
