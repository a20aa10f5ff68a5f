package bridge

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/live"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// flushTimeout bounds how long a finished prompt waits for its updates to
// reach a client that stopped reading. It is a guard, not a pace: a client
// that reads, however loaded its machine, gets every update before the
// answer.
const flushTimeout = 30 * time.Second

// liveSession is one session of the connection: its runtime, the mapping
// of its events to updates, and its running prompt.
type liveSession struct {
	id     string
	bridge *Bridge

	rt      *live.Session
	prompts promptReader // reads what the session's prompts link to
	mapper  *Mapper
	out     *outbox
	client  sessionClient // every call to the client goes through it
	forms   bool          // the client shows elicitation forms (askByForm)
	stopLog func()
	// journal writes the session's events to its stored log; nil when
	// sessions are not stored.
	journal *session.Journal

	mu       sync.Mutex
	settings live.Settings
	// beforePlan is the preset the session had when it last entered plan
	// mode ("" when unknown).
	beforePlan policy.Preset
	titled     bool // the session has a title
	kept       bool // the session is stored: it was prompted, or loaded
	empty      bool // it is stored without a conversation (session.Meta.Empty)
	closed     bool
	// background are the turns no session/prompt waits for (started by
	// steering); close waits for them.
	background sync.WaitGroup
	storeErr   error // the first failure to store the session, not told yet
	storeTold  bool  // the user was told the session could not be stored
}

// newLiveSession returns a session with its outbox running, not started.
func newLiveSession(id string, b *Bridge) *liveSession {
	s := &liveSession{id: id, bridge: b}
	s.out = newOutbox(id, b.client, b.opts.Logger)
	s.client = sessionClient{client: b.client, out: s.out}
	return s
}

// start shows the session's history as it now is — what no /rewind took
// back, besides the session's state (sessionState) — to the editor when
// opts.Replay is set, otherwise only to the mapper, which then knows the
// calls and the cost so far; and subscribes the session's updates to its log. Every
// event appended from now on is written to the journal, when there is
// one, before it is shown.
func (s *liveSession) start(rt *live.Session, opts MapperOptions, journal *session.Journal) {
	s.rt = rt
	s.journal = journal
	if journal != nil {
		rt.Log().SetSink(journal)
		s.out.persist = s.persist
	}
	s.mapper = NewMapper(opts)
	for _, ev := range session.WithoutRewound(rt.Log().Events(), sessionState) {
		if _, ok := ev.Payload.(session.TitleChanged); ok {
			s.titled = true
		}
		updates := s.mapSafely(ev)
		if opts.Replay {
			s.out.push(updates...)
		}
	}
	s.mapper.opts.Replay = false
	s.stopLog = rt.Log().Subscribe(s.show)
}

// sessionState reports whether p is of the session rather than its
// conversation, so that a replay shows it even when a /rewind took back
// the turn it came in: what the requests cost (live, the editor showed
// it, and it was spent), the session's title, a setting.
func sessionState(p session.Payload) bool {
	switch p.(type) {
	case session.Usage, session.TitleChanged, session.SettingChanged:
		return true
	}
	return false
}

// persist writes what the journal holds before the outbox sends the
// updates made from it.
func (s *liveSession) persist() {
	if err := s.journal.Flush(); err != nil {
		s.bridge.opts.Logger.Error("the session's log could not be written", "session", s.id, "err", err)
		s.storeFailed(err)
	}
}

// show maps one event (the log calls it in order) and queues its updates.
func (s *liveSession) show(ev session.Event) {
	s.out.push(s.mapSafely(ev)...)
}

// mapSafely maps ev, the one place where a panic of the mapping (a card
// outside its union: a bug) is caught: it is logged and counted
// (Bridge.mappingPanics, which the tests check), the event is shown as
// Mapper.Fallback shows it, and the server keeps serving.
func (s *liveSession) mapSafely(ev session.Event) (updates []acp.Update) {
	defer func() {
		if r := recover(); r != nil {
			s.bridge.mappingPanics.Add(1)
			s.bridge.opts.Logger.Error("an event could not be shown as it is: the mapping panicked",
				"session", s.id, "event", fmt.Sprintf("%T", ev.Payload), "panic", r)
			updates = s.mapper.Fallback(ev)
		}
	}()
	return s.mapper.Map(ev)
}

// prompt runs one turn, after those asked for before it. A cancelled
// turn answers "cancelled", never an error; the answer comes after every
// update of the turn was sent.
func (s *liveSession) prompt(ctx context.Context, content []presentation.ContentBlock) (acp.StopReason, error) {
	reason, err := s.rt.Run(ctx, s.turn(content))
	if errors.Is(err, live.ErrClosed) {
		return "", acp.InternalError("%v", err)
	}

	flushCtx, cancelFlush := context.WithTimeout(context.WithoutCancel(ctx), flushTimeout)
	if ferr := s.out.flush(flushCtx); ferr != nil {
		s.bridge.opts.Logger.Warn("updates not flushed before the prompt answer", "session", s.id, "err", ferr)
	}
	cancelFlush()

	switch {
	case reason == session.StopCancelled:
		return acp.StopReasonCancelled, nil
	case err != nil:
		return "", acp.InternalError("%v", err)
	default:
		return stopReason(reason), nil
	}
}

// turn is what one prompt's turn does: runTurn, and then the session
// is stored as used.
func (s *liveSession) turn(content []presentation.ContentBlock) live.TurnFunc {
	return func(ctx context.Context, t *live.Turn) (session.StopReason, error) {
		defer func() {
			s.storeFailed(s.bridge.touch(s.id))
			s.tellStoreFailure()
		}()
		return s.runTurn(ctx, t, content)
	}
}

// runTurn answers one prompt: a local slash command in the session
// itself, anything else — a prompt command's text included — by the
// model.
func (s *liveSession) runTurn(ctx context.Context, t *live.Turn, content []presentation.ContentBlock) (session.StopReason, error) {
	s.keep()
	cmd, line, args, isCommand := s.parseCommand(content)
	if isCommand && cmd.local != nil {
		if err := s.runLocal(ctx, t, cmd, line, args); err != nil {
			return session.StopCancelled, nil
		}
		return session.StopEndTurn, nil
	}
	if isCommand {
		content = []presentation.ContentBlock{presentation.Text(cmd.prompt(args))}
	} else {
		s.nameFromPrompt(content)
	}
	return t.Prompt(ctx, content)
}

// cancel ends the running turn, if any.
func (s *liveSession) cancel() {
	if s.rt != nil {
		s.rt.Cancel()
	}
}

// cancelChild stops the session's running child id alone, and reports
// whether it ran one.
func (s *liveSession) cancelChild(id string) bool {
	return s.rt != nil && s.rt.CancelChild(id)
}

// close cancels and awaits the running turn, stops the session's
// background work and sends what is left to send.
func (s *liveSession) close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.mu.Unlock()
	if s.rt != nil {
		s.rt.Close()
	}
	s.background.Wait()
	if s.stopLog != nil { // it started: its factory built it
		s.stopLog()
		s.keepEmpty()
	}
	if s.out != nil {
		s.out.close()
	}
	if s.journal != nil {
		if err := s.journal.Close(); err != nil {
			s.bridge.opts.Logger.Error("the session's log could not be closed", "session", s.id, "err", err)
		}
	}
}
