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
	"sync/atomic"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/session"
)

// protocolVersion is the one ACP version the bridge speaks.
const protocolVersion = 1

// Bridge implements the ACP agent methods for one client connection. It is
// safe for concurrent use: each session has its own state and lock.
type Bridge struct {
	client Client
	opts   Options

	// mappingPanics counts the events whose mapping panicked
	// (liveSession.mapSafely).
	mappingPanics atomic.Int64

	mu       sync.Mutex
	closed   bool
	terminal bool
	shows    acp.ClientSessionCapabilities // the session updates the client shows
	plans    bool                          // the client shows plan operations (clientCapabilities.plan)
	fsRead   bool
	fsWrite  bool
	forms    bool // the client shows elicitation forms
	// subagents says the client shows child sessions (unstable).
	subagents bool
	sessions  map[string]*liveSession
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
// file access, Zed's terminal display convention, whether it can run a
// sign-in terminal, its elicitation forms, and the session updates it
// shows (notices, compactions, the unstable plan operations).
func (b *Bridge) Initialize(_ context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
	caps := req.ClientCapabilities
	terminal, _ := caps.Meta["terminal_output"].(bool)
	legacyAuth, _ := caps.Meta["terminal-auth"].(bool)
	b.mu.Lock()
	b.terminal = terminal
	b.shows = req.ClientSession
	b.plans = req.Plan
	b.subagents = req.Subagents
	b.fsRead, b.fsWrite = caps.Fs.ReadTextFile, caps.Fs.WriteTextFile
	b.forms = req.ElicitationForm
	b.mu.Unlock()
	info := &acp.Implementation{Name: b.opts.Name, Version: b.opts.Version}
	if b.opts.Title != "" {
		title := b.opts.Title
		info.Title = &title
	}
	agentCaps := acp.AgentCapabilities{
		// Images reach models configured to take them and are replaced
		// by a note for the others; embedded resources reach every model.
		PromptCapabilities: acp.PromptCapabilities{Image: true, EmbeddedContext: true},
		SessionCapabilities: acp.SessionCapabilities{
			AdditionalDirectories: &acp.SessionAdditionalDirectoriesCapabilities{},
			Close:                 &acp.SessionCloseCapabilities{},
		},
	}
	if b.opts.MCPRemote {
		agentCaps.McpCapabilities = acp.McpCapabilities{Http: true, Sse: true}
	}
	if b.opts.Store != nil {
		agentCaps.LoadSession = true
		agentCaps.SessionCapabilities.List = &acp.SessionListCapabilities{}
		agentCaps.SessionCapabilities.Resume = &acp.SessionResumeCapabilities{}
		agentCaps.SessionCapabilities.Delete = &acp.SessionDeleteCapabilities{}
	}
	if b.opts.Auth.Logout != nil {
		agentCaps.Auth.Logout = &acp.LogoutCapabilities{}
	}
	return acp.InitializeResponse{
		InitializeFields: acp.InitializeFields{
			ProtocolVersion:   protocolVersion,
			AgentInfo:         info,
			AuthMethods:       b.opts.Auth.methods(caps.Auth.Terminal, legacyAuth),
			AgentCapabilities: agentCaps,
			Meta:              map[string]any{"steering": acp.SteeringMeta()},
		},
		SystemPrompt: true,
	}, nil
}

// NewSession creates a session in an absolute working directory, with the
// additional directories as further workspace roots; each must be an
// existing directory. MCP servers are accepted and handed to the factory.
// A session whose model needs a key nobody gave is refused with the
// auth-required error, so the editor can offer its sign-in.
func (b *Bridge) NewSession(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	roots, err := sessionRoots(req.Cwd, req.AdditionalDirectories)
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	prompt, err := clientSystemPrompt(req.SystemPrompt)
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	menu := b.menu()
	settings := menu.start(b.opts.Defaults)
	if err := b.opts.Auth.check(settings.Model); err != nil {
		return acp.NewSessionResponse{}, err
	}
	id, err := newSessionID()
	if err != nil {
		return acp.NewSessionResponse{}, acp.InternalError("session id: %v", err)
	}
	var journal *session.Journal
	if b.opts.Store != nil {
		now := time.Now()
		journal, err = b.opts.Store.Create(session.Meta{
			ID: id, Cwd: roots[0], AdditionalDirectories: roots[1:], Created: now, Updated: now,
			Model: settings.Model, Effort: settings.Effort, Preset: string(settings.Preset),
			SystemPrompt: prompt.Text, SystemPromptMode: prompt.mode(),
		})
		if err != nil {
			return acp.NewSessionResponse{}, acp.InternalError("store the session: %v", err)
		}
	}
	s, err := b.open(ctx, openRequest{id: id, roots: roots, mcp: req.McpServers, settings: settings, prompt: prompt, journal: journal})
	if err != nil {
		return acp.NewSessionResponse{}, err
	}
	s.announce(ctx)
	return acp.NewSessionResponse{SessionID: id, SessionSetup: s.setup(menu)}, nil
}

// openRequest is what a session is opened from: a new one, or a stored
// one loaded or resumed.
type openRequest struct {
	id       string
	roots    []string
	mcp      []acp.McpServer
	settings live.Settings
	prompt   SystemPrompt
	history  []session.Event
	journal  *session.Journal
	replay   bool
	// stored is set for a session that was stored already (loaded or
	// resumed); a new one is stored at its first prompt, or empty when it
	// closes without one. empty says a stored one has no conversation yet.
	stored, empty bool
}

// open builds a session's runtime and makes it live: its history shown
// (replayed to the editor when r.replay is set, every update sent before
// open returns), its events written to the journal and shown from now on.
// The journal is closed when open fails.
func (b *Bridge) open(ctx context.Context, r openRequest) (*liveSession, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		if r.journal != nil {
			r.journal.Close()
		}
		return nil, acp.InternalError("the connection is closing")
	}
	terminal, shows, plans, fsRead, fsWrite, forms, subagents := b.terminal, b.shows, b.plans, b.fsRead, b.fsWrite, b.forms, b.subagents
	b.mu.Unlock()

	s := newLiveSession(r.id, b)
	s.forms = forms
	s.settings = r.settings
	s.beforePlan = loggedBeforePlan(r.history)
	s.kept, s.empty = r.stored, r.empty
	servers, badServers := mcpServers(r.mcp)
	cfg := SessionConfig{
		ID: r.id, Cwd: r.roots[0], Roots: r.roots, Approver: s, Plans: s, Asker: s, MCPServers: servers,
		History: r.history, Settings: r.settings, SystemPrompt: r.prompt,
	}
	if badServers != nil {
		cfg.Problems = append(cfg.Problems, badServers.Error())
	}
	if fsRead || fsWrite {
		cfg.Files = EditorFiles{SessionID: r.id, Client: s.client, Read: fsRead, Write: fsWrite}
	}
	s.prompts = newPromptReader(r.roots, cfg.Files)
	rt, err := b.opts.Factory(ctx, cfg)
	if err != nil {
		s.journal = r.journal
		s.close()
		return nil, acp.InternalError("create session: %v", err)
	}
	s.start(rt, MapperOptions{Cwd: r.roots[0], Terminal: terminal, Notices: shows.Notices, Compaction: shows.Compaction, Plans: plans, Subagents: subagents, ContextWindow: b.opts.ContextWindow, Replay: r.replay, Redactor: b.opts.Redactor}, r.journal)
	if r.replay {
		flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
		err := s.out.flush(flushCtx)
		cancel()
		if err != nil {
			s.close()
			return nil, acp.InternalError("the stored conversation could not be sent: %v", err)
		}
	}

	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		s.close()
		return nil, acp.InternalError("the connection closed while the session was opening")
	}
	b.sessions[r.id] = s
	b.mu.Unlock()
	return s, nil
}

// sessionRoots checks a session's working directory and additional
// directories and returns the workspace roots, cwd first.
func sessionRoots(cwd string, additional []string) ([]string, error) {
	if !filepath.IsAbs(cwd) {
		return nil, acp.InvalidParams("cwd must be an absolute path: %q", cwd)
	}
	if err := checkRoot("cwd", cwd); err != nil {
		return nil, err
	}
	roots := []string{filepath.Clean(cwd)}
	for _, dir := range additional {
		if !filepath.IsAbs(dir) {
			return nil, acp.InvalidParams("additionalDirectories must be absolute paths: %q", dir)
		}
		if err := checkRoot("additionalDirectories: directory", dir); err != nil {
			return nil, err
		}
		roots = append(roots, filepath.Clean(dir))
	}
	return roots, nil
}

// menu returns the settings menu with the models on offer now.
func (b *Bridge) menu() settingsMenu {
	if b.opts.Models == nil {
		return settingsMenu{}
	}
	return settingsMenu{models: b.opts.Models()}
}

// Prompt runs one turn of a session and answers with exactly one stop
// reason, after every update of the turn has been sent.
func (b *Bridge) Prompt(ctx context.Context, req acp.PromptRequest) (acp.PromptResponse, error) {
	s, err := b.session(string(req.SessionId))
	if err != nil {
		return acp.PromptResponse{}, err
	}
	content, err := s.prompts.content(ctx, req.Prompt)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	reason, err := s.prompt(ctx, content)
	if err != nil {
		return acp.PromptResponse{}, err
	}
	return acp.PromptResponse{StopReason: reason}, nil
}

// Cancel ends the session's running turn: nothing new starts, running
// commands are killed, pending permission requests are withdrawn, and the
// prompt answers "cancelled". Unknown sessions and idle ones are ignored.
func (b *Bridge) Cancel(_ context.Context, n acp.CancelNotification) {
	b.mu.Lock()
	s := b.sessions[string(n.SessionId)]
	var all []*liveSession
	if s == nil {
		for _, other := range b.sessions {
			all = append(all, other)
		}
	}
	b.mu.Unlock()
	if s != nil {
		s.cancel()
		return
	}
	// A child session (subagent_update announced it): stop that child
	// alone, in whichever session runs it.
	for _, other := range all {
		if other.cancelChild(string(n.SessionId)) {
			return
		}
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
