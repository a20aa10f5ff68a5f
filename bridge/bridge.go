package bridge

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// protocolVersion is the one ACP version the bridge speaks.
const protocolVersion = 1

// Bridge implements the ACP agent methods for one client connection. It is
// safe for concurrent use: each session has its own state and lock.
type Bridge struct {
	client Client
	opts   Options

	mu       sync.Mutex
	closed   bool
	terminal bool
	fsRead   bool
	fsWrite  bool
	sessions map[string]*liveSession
}

// New returns the bridge serving client.
func New(client Client, opts Options) *Bridge {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Bridge{client: client, opts: opts, sessions: map[string]*liveSession{}}
}

// Initialize answers protocol version 1 whatever is asked, and the
// capabilities that work today. It remembers what the client offers: its
// file access, and Zed's terminal display convention.
func (b *Bridge) Initialize(_ context.Context, req acpsdk.InitializeRequest) (acpsdk.InitializeResponse, error) {
	caps := req.ClientCapabilities
	terminal, _ := caps.Meta["terminal_output"].(bool)
	b.mu.Lock()
	b.terminal = terminal
	b.fsRead, b.fsWrite = caps.Fs.ReadTextFile, caps.Fs.WriteTextFile
	b.mu.Unlock()
	info := &acpsdk.Implementation{Name: b.opts.Name, Version: b.opts.Version}
	if b.opts.Title != "" {
		title := b.opts.Title
		info.Title = &title
	}
	return acpsdk.InitializeResponse{
		ProtocolVersion: protocolVersion,
		AgentInfo:       info,
		AuthMethods:     []acpsdk.AuthMethod{},
		AgentCapabilities: acpsdk.AgentCapabilities{
			PromptCapabilities: acpsdk.PromptCapabilities{},
			SessionCapabilities: acpsdk.SessionCapabilities{
				AdditionalDirectories: &acpsdk.SessionAdditionalDirectoriesCapabilities{},
			},
		},
	}, nil
}

// Authenticate accepts: no authentication is needed.
func (b *Bridge) Authenticate(context.Context, acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	return acpsdk.AuthenticateResponse{}, nil
}

// NewSession creates a session in an absolute working directory, with the
// additional directories as further workspace roots; each must be an
// existing directory. MCP servers are accepted and handed to the factory.
func (b *Bridge) NewSession(ctx context.Context, req acpsdk.NewSessionRequest) (acpsdk.NewSessionResponse, error) {
	if !filepath.IsAbs(req.Cwd) {
		return acpsdk.NewSessionResponse{}, acp.InvalidParams("cwd must be an absolute path: %q", req.Cwd)
	}
	if err := checkRoot("cwd", req.Cwd); err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	roots := []string{filepath.Clean(req.Cwd)}
	for _, dir := range req.AdditionalDirectories {
		if !filepath.IsAbs(dir) {
			return acpsdk.NewSessionResponse{}, acp.InvalidParams("additionalDirectories must be absolute paths: %q", dir)
		}
		if err := checkRoot("additionalDirectories: directory", dir); err != nil {
			return acpsdk.NewSessionResponse{}, err
		}
		roots = append(roots, filepath.Clean(dir))
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return acpsdk.NewSessionResponse{}, acp.InternalError("the connection is closing")
	}
	terminal, fsRead, fsWrite := b.terminal, b.fsRead, b.fsWrite
	b.mu.Unlock()

	id, err := newSessionID()
	if err != nil {
		return acpsdk.NewSessionResponse{}, acp.InternalError("session id: %v", err)
	}
	s := newLiveSession(id, b)
	cfg := SessionConfig{ID: id, Cwd: roots[0], Roots: roots, Approver: s, MCPServers: req.McpServers}
	if fsRead || fsWrite {
		cfg.Files = EditorFiles{SessionID: id, Client: s.client, Read: fsRead, Write: fsWrite}
	}
	rt, err := b.opts.Factory(ctx, cfg)
	if err != nil {
		s.close()
		return acpsdk.NewSessionResponse{}, acp.InternalError("create session: %v", err)
	}
	s.start(rt, MapperOptions{Cwd: roots[0], Terminal: terminal, ContextWindow: b.opts.ContextWindow})

	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		s.close()
		return acpsdk.NewSessionResponse{}, acp.InternalError("the connection closed during session/new")
	}
	b.sessions[id] = s
	b.mu.Unlock()
	return acpsdk.NewSessionResponse{SessionId: acpsdk.SessionId(id)}, nil
}

// Prompt runs one turn of a session and answers with exactly one stop
// reason, after every update of the turn has been sent.
func (b *Bridge) Prompt(ctx context.Context, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	s, err := b.session(string(req.SessionId))
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	content, err := promptContent(req.Prompt)
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	reason, err := s.prompt(ctx, content)
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	return acpsdk.PromptResponse{StopReason: reason}, nil
}

// Cancel ends the session's running turn: nothing new starts, running
// commands are killed, pending permission requests are withdrawn, and the
// prompt answers "cancelled". Unknown sessions and idle ones are ignored.
func (b *Bridge) Cancel(_ context.Context, n acpsdk.CancelNotification) {
	b.mu.Lock()
	s := b.sessions[string(n.SessionId)]
	b.mu.Unlock()
	if s != nil {
		s.cancel()
	}
}

// Close ends every session: running turns are cancelled and awaited,
// background processes stopped, pending updates sent. Later requests are
// refused. It is idempotent.
func (b *Bridge) Close() {
	b.mu.Lock()
	b.closed = true
	sessions := b.sessions
	b.sessions = map[string]*liveSession{}
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Go(s.close)
	}
	wg.Wait()
}

func (b *Bridge) session(id string) (*liveSession, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, acp.InternalError("the connection is closing")
	}
	s := b.sessions[id]
	if s == nil {
		return nil, acp.InvalidParams("unknown session: %q", id)
	}
	return s, nil
}

// checkRoot refuses (-32602) a session root that is not an existing
// directory; what names it in the message.
func checkRoot(what, dir string) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return acp.InvalidParams("%s does not exist: %q", what, dir)
	case err != nil:
		return acp.InvalidParams("%s cannot be used: %v", what, err)
	case !info.IsDir():
		return acp.InvalidParams("%s is not a directory: %q", what, dir)
	}
	return nil
}

// newSessionID returns a random UUID (version 4).
func newSessionID() (string, error) {
	var u [16]byte
	if _, err := rand.Read(u[:]); err != nil {
		return "", err
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return fmt.Sprintf("%s-%s-%s-%s-%s", h[0:8], h[8:12], h[12:16], h[16:20], h[20:32]), nil
}

// errPromptInFlight refuses a second prompt while one runs.
var errPromptInFlight = errors.New("a prompt is already in flight for this session")
