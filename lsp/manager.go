package lsp

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// Manager runs a session's language servers: lazily, one per workspace
// root and server, kept in sync with the files the tools read and write.
// Its methods are safe for concurrent use.
type Manager struct {
	opts Options

	mu      sync.Mutex
	slots   map[slotKey]*slot
	noted   map[string]bool // the notes already given, by text
	closed  bool
	base    context.Context // servers start under it; Close cancels it
	stopAll context.CancelFunc
}

// slotKey names one server for one root.
type slotKey struct {
	server string
	root   string
}

// slot is the state of one server for one root. ready is closed when a
// start attempt has finished; srv is the running server, or nil when it
// could not start (err says why) or gave up.
type slot struct {
	ready    chan struct{}
	srv      *server
	err      error
	restarts int
}

// New returns a Manager for opts. Nothing starts until a file of a
// server's type is touched.
func New(opts Options) *Manager {
	opts = opts.withDefaults()
	roots := make([]string, 0, len(opts.Roots))
	for _, r := range opts.Roots {
		if r != "" {
			roots = append(roots, filepath.Clean(r))
		}
	}
	opts.Roots = roots
	base, stopAll := context.WithCancel(context.Background())
	return &Manager{opts: opts, slots: map[slotKey]*slot{}, noted: map[string]bool{}, base: base, stopAll: stopAll}
}

// configFor returns the server for path's file type.
func (m *Manager) configFor(path string) (ServerConfig, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, cfg := range m.opts.Servers {
		for _, e := range cfg.Extensions {
			if strings.EqualFold(e, ext) {
				return cfg, true
			}
		}
	}
	return ServerConfig{}, false
}

// rootFor returns the workspace root holding path: the deepest root that
// contains it, or "" when none does.
func (m *Manager) rootFor(path string) string {
	best := ""
	for _, r := range m.opts.Roots {
		if !workspace.Under(r, path) {
			continue
		}
		if len(r) > len(best) {
			best = r
		}
	}
	return best
}

// serverFor returns the running server for path, starting it (or
// restarting it once after a crash) when needed; without wait it does not
// wait for a start to finish and returns nil meanwhile. It returns nil and
// the reason when there is no server for path: none configured for its
// type or root (reason ""), its program missing, or it failed to start or
// stopped twice.
func (m *Manager) serverFor(ctx context.Context, path string, wait bool) (*server, string) {
	cfg, ok := m.configFor(path)
	root := m.rootFor(path)
	if !ok || root == "" {
		return nil, ""
	}
	if _, err := exec.LookPath(cfg.Command[0]); err != nil {
		return nil, fmt.Sprintf("no language server for %s files: install %s (not found on PATH)",
			strings.ToLower(filepath.Ext(path)), cfg.Command[0])
	}
	if !wait {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		cancel() // start only looks whether the server is ready
	}
	s, err := m.start(ctx, slotKey{cfg.Name, root}, cfg)
	switch {
	case err == nil:
		return s, ""
	case ctx.Err() != nil || errors.Is(err, errClosed):
		return nil, "" // the caller gave up, or the session ended: nothing to tell
	default:
		return nil, err.Error()
	}
}

// start returns the running server of key, starting it when it has not
// run yet and restarting it once when it died. Concurrent callers share
// one start.
func (m *Manager) start(ctx context.Context, key slotKey, cfg ServerConfig) (*server, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, errClosed
	}
	sl, ok := m.slots[key]
	var off string
	switch {
	case !ok:
		sl = &slot{ready: make(chan struct{})}
		m.slots[key] = sl
		go m.launch(sl, key, cfg)
	default:
		select {
		case <-sl.ready:
			if sl.srv != nil && !sl.srv.alive() {
				off = m.restart(sl, key, cfg)
			}
		default:
		}
	}
	ready := sl.ready
	m.mu.Unlock()
	if off != "" {
		m.opts.Report(off)
	}
	select {
	case <-ready:
	default:
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, fmt.Errorf("%s: %w", cfg.Name, ctx.Err())
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return sl.srv, sl.err
}

// restart replaces sl's dead server with a new one, once; the second
// death leaves the slot failed and returns what to report of it. Called
// with m.mu held.
func (m *Manager) restart(sl *slot, key slotKey, cfg ServerConfig) (off string) {
	dead := sl.srv
	dead.stop() // reaps what is left of it: quick, the program has exited
	if sl.restarts >= 1 {
		sl.srv = nil
		sl.err = fmt.Errorf("%s stopped again after a restart; language features for its files are off for this session%s",
			cfg.Name, stderrTail(dead.proc))
		return "Language server " + sl.err.Error()
	}
	m.opts.Logger.Warn("language server stopped; restarting it", "server", cfg.Name, "root", key.root)
	sl.restarts++
	sl.srv = nil
	sl.ready = make(chan struct{})
	go m.launch(sl, key, cfg)
	return ""
}

// launch starts sl's server and publishes the outcome. Close cancels a
// start in progress; a server that starts after Close is stopped at once.
func (m *Manager) launch(sl *slot, key slotKey, cfg ServerConfig) {
	s, err := startServer(m.base, cfg, key.root, m.opts.EnvAllow, m.opts.Logger, m.opts.StartTimeout)
	m.mu.Lock()
	if err == nil && m.closed {
		m.mu.Unlock()
		s.stop()
		m.mu.Lock()
		s, err = nil, errClosed
	}
	sl.srv, sl.err = s, err
	ready := sl.ready
	m.mu.Unlock()
	if err != nil {
		m.opts.Logger.Warn("language server did not start", "server", cfg.Name, "root", key.root, "err", err)
	}
	// Told before the waiting callers go on, so what they say of the
	// failure never comes before the user is told.
	if err != nil && !errors.Is(err, errClosed) && m.base.Err() == nil {
		m.opts.Report(fmt.Sprintf("Language server %s could not start; language features for its files are off for this session: %v", cfg.Name, err))
	}
	close(ready)
}

// noteOnce returns note as a note for the model the first time it is
// given, "" after that and for an empty note.
func (m *Manager) noteOnce(note string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if note == "" || m.noted[note] {
		return ""
	}
	m.noted[note] = true
	return "Note: " + note + "."
}

// running returns the servers that are up now.
func (m *Manager) running() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*server
	for _, sl := range m.slots {
		select {
		case <-sl.ready:
			if sl.srv != nil && sl.srv.alive() {
				out = append(out, sl.srv)
			}
		default:
		}
	}
	return out
}

// Close stops every server and waits until each process is gone,
// including servers still starting. The Manager starts nothing after it.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	m.stopAll()
	slots := make([]*slot, 0, len(m.slots))
	for _, sl := range m.slots {
		slots = append(slots, sl)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, sl := range slots {
		wg.Go(func() {
			m.mu.Lock()
			ready := sl.ready
			m.mu.Unlock()
			<-ready
			m.mu.Lock()
			s := sl.srv
			sl.srv = nil
			m.mu.Unlock()
			if s != nil {
				s.stop()
			}
		})
	}
	wg.Wait()
	return nil
}

// errClosed is the error of a start after Close.
var errClosed = errors.New("language servers are shut down")
