package bridge

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/session"
)

// listPageSize is how many sessions one session/list page holds.
const listPageSize = 50

// LoadSession opens a stored session and replays its whole conversation
// to the editor — every session/update is sent before the answer — then
// the session is live again with its history and settings.
func (b *Bridge) LoadSession(ctx context.Context, req acp.LoadSessionRequest) (acp.SessionSetup, error) {
	return b.reopen(ctx, reopenRequest{id: string(req.SessionId), cwd: req.Cwd, additional: req.AdditionalDirectories,
		mcp: req.McpServers, prompt: req.SystemPrompt, replay: true})
}

// ResumeSession opens a stored session without replaying it.
func (b *Bridge) ResumeSession(ctx context.Context, req acp.ResumeSessionRequest) (acp.SessionSetup, error) {
	return b.reopen(ctx, reopenRequest{id: string(req.SessionId), cwd: req.Cwd, additional: req.AdditionalDirectories,
		mcp: req.McpServers, prompt: req.SystemPrompt})
}

// reopenRequest is what session/load and session/resume ask for.
type reopenRequest struct {
	id, cwd    string
	additional []string
	mcp        []acp.McpServer
	// prompt is the client's system prompt, nil to keep the stored one.
	prompt *acp.SystemPrompt
	replay bool
}

// reopen makes a stored session live in this connection. A session live
// here already is closed first (its log is complete on disk), unless it
// is running a prompt; one open in another process is refused. A system
// prompt the request gives replaces the stored one.
func (b *Bridge) reopen(ctx context.Context, r reopenRequest) (acp.SessionSetup, error) {
	id, cwd, additional, mcp, replay := r.id, r.cwd, r.additional, r.mcp, r.replay
	store := b.opts.Store
	if store == nil {
		return acp.SessionSetup{}, acp.MethodNotFound("session/load")
	}
	roots, err := sessionRoots(cwd, additional)
	if err != nil {
		return acp.SessionSetup{}, err
	}
	given, err := clientSystemPrompt(r.prompt)
	if err != nil {
		return acp.SessionSetup{}, err
	}
	if err := b.closeLive(id); err != nil {
		return acp.SessionSetup{}, err
	}
	journal, loaded, err := store.Open(id)
	if err != nil {
		return acp.SessionSetup{}, storeError(id, err)
	}
	if loaded.Skipped > 0 {
		b.opts.Logger.Warn("stored session had unreadable lines", "session", id, "skipped", loaded.Skipped)
	}
	menu := b.menu()
	settings := storedSettings(menu, loaded.Meta, b.opts.Defaults)
	if err := b.opts.Auth.check(settings.Model); err != nil {
		journal.Close()
		return acp.SessionSetup{}, err
	}
	prompt := storedSystemPrompt(loaded.Meta.SystemPrompt, loaded.Meta.SystemPromptMode)
	if r.prompt != nil {
		prompt = given
	}
	var metaErr error
	if roots[0] != loaded.Meta.Cwd || len(additional) > 0 || r.prompt != nil {
		_, metaErr = store.UpdateMeta(id, func(m *session.Meta) {
			m.Cwd, m.AdditionalDirectories = roots[0], roots[1:]
			m.SystemPrompt, m.SystemPromptMode = prompt.Text, prompt.mode()
		})
		if metaErr != nil {
			b.opts.Logger.Warn("the session's new directories were not stored", "session", id, "err", metaErr)
		}
	}
	s, err := b.open(ctx, openRequest{
		id: id, roots: roots, mcp: mcp, settings: settings, prompt: prompt,
		history: loaded.Events, journal: journal, replay: replay, stored: true, empty: loaded.Meta.Empty,
	})
	if err != nil {
		return acp.SessionSetup{}, err
	}
	s.storeFailed(metaErr)
	s.announce(ctx)
	return s.setup(menu), nil
}

// storedSettings are the settings a stored session had, with the
// defaults for what it does not say.
func storedSettings(menu settingsMenu, m session.Meta, defaults live.Settings) live.Settings {
	s := defaults
	if m.Model != "" {
		s.Model, s.Effort = m.Model, m.Effort
	}
	if p, err := policy.ParsePreset(m.Preset); err == nil {
		s.Preset = p
	}
	return menu.start(s)
}

// ListSessions lists the stored sessions, newest first, those of one
// working directory when cwd is given, a page at a time.
func (b *Bridge) ListSessions(_ context.Context, req acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	store := b.opts.Store
	if store == nil {
		return acp.ListSessionsResponse{}, acp.MethodNotFound("session/list")
	}
	cwd := ""
	if req.Cwd != nil && *req.Cwd != "" {
		if !filepath.IsAbs(*req.Cwd) {
			return acp.ListSessionsResponse{}, acp.InvalidParams("cwd must be an absolute path: %q", *req.Cwd)
		}
		cwd = filepath.Clean(*req.Cwd)
	}
	metas, err := store.List(cwd)
	if err != nil {
		return acp.ListSessionsResponse{}, acp.InternalError("list sessions: %v", err)
	}
	start := 0
	if req.Cursor != nil && *req.Cursor != "" {
		after, err := decodeCursor(*req.Cursor)
		if err != nil {
			return acp.ListSessionsResponse{}, acp.InvalidParams("%v", err)
		}
		start = len(metas)
		for i, m := range metas {
			if after.before(m) {
				start = i
				break
			}
		}
	}
	end := min(start+listPageSize, len(metas))
	page := acp.ListSessionsResponse{Sessions: make([]acp.SessionInfo, 0, end-start)}
	for _, m := range metas[start:end] {
		page.Sessions = append(page.Sessions, acp.SessionInfo{
			SessionID: m.ID, Cwd: m.Cwd, AdditionalDirectories: m.AdditionalDirectories,
			Title: escapeControls(m.Title), UpdatedAt: m.Updated.UTC().Format(time.RFC3339),
		})
	}
	if end < len(metas) {
		page.NextCursor = encodeCursor(metas[end-1])
	}
	return page, nil
}

// listCursor is the position after the last session of a page: the list
// is ordered newest first, then by id, so a session stored or updated
// between two pages never shifts the next one.
type listCursor struct {
	updated time.Time
	id      string
}

// before reports whether the cursor's session comes before m in the list.
func (c listCursor) before(m session.Meta) bool {
	if !m.Updated.Equal(c.updated) {
		return m.Updated.Before(c.updated)
	}
	return m.ID > c.id
}

func encodeCursor(m session.Meta) string {
	return base64.RawURLEncoding.EncodeToString([]byte(m.Updated.UTC().Format(time.RFC3339Nano) + " " + m.ID))
}

func decodeCursor(s string) (listCursor, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		stamp, id, ok := strings.Cut(string(raw), " ")
		if t, terr := time.Parse(time.RFC3339Nano, stamp); ok && terr == nil {
			return listCursor{updated: t, id: id}, nil
		}
	}
	return listCursor{}, fmt.Errorf("invalid cursor %q: pass the nextCursor of the previous page", s)
}

// CloseSession ends a live session: its running turn is cancelled, its
// processes stopped, its memory freed; its stored log stays. Closing a
// session that is not live is a no-op.
func (b *Bridge) CloseSession(_ context.Context, req acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	b.mu.Lock()
	s := b.sessions[string(req.SessionId)]
	delete(b.sessions, string(req.SessionId))
	b.mu.Unlock()
	if s != nil {
		s.close()
		b.touch(s.id)
	}
	return acp.CloseSessionResponse{}, nil
}

// DeleteSession closes a session live here and removes it from the store.
func (b *Bridge) DeleteSession(_ context.Context, req acp.DeleteSessionRequest) (acp.DeleteSessionResponse, error) {
	store := b.opts.Store
	if store == nil {
		return acp.DeleteSessionResponse{}, acp.MethodNotFound("session/delete")
	}
	b.mu.Lock()
	s := b.sessions[req.SessionID]
	delete(b.sessions, req.SessionID)
	b.mu.Unlock()
	if s != nil {
		s.close()
	}
	if err := store.Delete(req.SessionID); err != nil {
		if s != nil && errors.Is(err, session.ErrNotFound) {
			// Live here but closed before it kept anything: nothing to remove.
			return acp.DeleteSessionResponse{}, nil
		}
		return acp.DeleteSessionResponse{}, storeError(req.SessionID, err)
	}
	return acp.DeleteSessionResponse{}, nil
}

// closeLive closes the session id when it is live here and idle; a
// session running a prompt is refused.
func (b *Bridge) closeLive(id string) error {
	b.mu.Lock()
	s := b.sessions[id]
	if s != nil {
		if s.rt != nil && s.rt.Busy() {
			b.mu.Unlock()
			return acp.InvalidParams("session %s is running a prompt; cancel it first", id)
		}
		delete(b.sessions, id)
	}
	b.mu.Unlock()
	if s != nil {
		s.close()
	}
	return nil
}

// touch records that a session was used now, and returns the store's
// failure, if any (logged too).
func (b *Bridge) touch(id string) error {
	if b.opts.Store == nil {
		return nil
	}
	now := time.Now()
	_, err := b.opts.Store.UpdateMeta(id, func(m *session.Meta) { m.Updated = now })
	if err == nil || errors.Is(err, session.ErrNotFound) { // not found: closed before it kept anything
		return nil
	}
	b.opts.Logger.Warn("the session's time was not stored", "session", id, "err", err)
	return err
}

// storeError turns a store failure into the answer the client gets.
func storeError(id string, err error) error {
	switch {
	case errors.Is(err, session.ErrNotFound):
		return acp.ResourceNotFound("unknown session: %q", id)
	case errors.Is(err, session.ErrLocked):
		return acp.InvalidParams("%v", err)
	default:
		return acp.InternalError("session %s: %v", id, err)
	}
}

// keepEmpty stores a session that is closing without ever having been
// prompted as an empty one (session.Meta.Empty), with its settings: a
// client may have named it and use it from a later process (acpx's
// `sessions new --name s1`, then a prompt from another acpx, resumes its
// id), while session/list leaves it out, as it does the sessions editors
// open ahead of time and never use. A session stored already is left as
// it is.
func (s *liveSession) keepEmpty() {
	s.mu.Lock()
	kept := s.kept
	if !kept {
		s.kept, s.empty = true, true
	}
	settings := s.settings
	s.mu.Unlock()
	if !kept && s.journal != nil {
		s.storeSettings(settings)
	}
}
