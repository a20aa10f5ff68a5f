package live

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/agent"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// ErrClosed refuses a turn of a session that is closing.
var ErrClosed = errors.New("the session is closing")

// Model runs the model's side of a session: *agent.Agent.
type Model interface {
	// PromptSteered runs one model turn for the user's content, taking
	// what the user sends while it runs from steering at each step.
	PromptSteered(ctx context.Context, content []presentation.ContentBlock, steering agent.Steering) (session.StopReason, error)
	// Compact summarizes the conversation now and returns how many turns
	// the summary covers.
	Compact(ctx context.Context) (turns int, err error)
}

// Parts are what a Session is made of; internal/app builds them.
type Parts struct {
	// Model and Log are required: the model's turns, and the session's
	// events, which every turn appends to.
	Model Model
	Log   *session.Log
	// Checkpoints, when set, snapshot the workspace around each model
	// turn so that /undo can put it back; nil offers no /undo.
	Checkpoints Checkpoints
	// Rules keeps the project's "always" answers; nil remembers none.
	Rules Rules
	// Commands are the user's own slash commands.
	Commands []Command
	// Apply, when set, makes new settings take effect from the next model
	// request.
	Apply func(Settings)
	// Stop, when set, stops the session's background work (jobs, servers);
	// Close calls it once, after the last turn ended.
	Stop func()
	// Children, when set, stops one of the session's child agents alone
	// (CancelChild).
	Children Children
	// Logger receives what the user need not be told (a checkpoint that
	// failed); nil discards it.
	Logger *slog.Logger
}

// Session is one running session. Its methods may be called from any
// goroutine; it runs one turn at a time, and the turns asked for while one
// runs wait, in order.
type Session struct {
	parts  Parts
	logger *slog.Logger

	mu      sync.Mutex
	running bool               // a turn runs (or has just been handed to the first in queue)
	stop    context.CancelFunc // cancels the running turn
	done    chan struct{}      // closed when the running turn ends
	queue   []*waiter          // the turns waiting, oldest first
	claimed *waiter            // given the turn, not started yet
	closed  bool
	// steer holds what the user sent while a model turn runs; nil when
	// none runs.
	steer *inbox
	// told are the notices kept for the next turn; atOnce logs them as
	// they come instead (TellAtOnce).
	told   []string
	atOnce bool
}

// waiter is a turn waiting for the one before it.
type waiter struct {
	ready     chan struct{} // closed when it may run, or was cancelled
	cancelled bool          // set (before ready closes) when Cancel or Close dropped it
}

// New returns a session made of parts, or an error naming a required
// part that is missing.
func New(parts Parts) (*Session, error) {
	switch {
	case parts.Model == nil:
		return nil, errors.New("live: a Model is required")
	case parts.Log == nil:
		return nil, errors.New("live: a Log is required")
	}
	logger := parts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Session{parts: parts, logger: logger}, nil
}

// Children stops a session's child agents (*subagent.Runner).
type Children interface {
	// Cancel stops the running child id alone, and reports whether one
	// was running.
	Cancel(id string) bool
}

// CancelChild stops the session's running child agent id alone: its task
// fails, and the turn goes on. It reports whether such a child was
// running.
func (s *Session) CancelChild(id string) bool {
	return s.parts.Children != nil && s.parts.Children.Cancel(id)
}

// Log is the session's events.
func (s *Session) Log() *session.Log { return s.parts.Log }

// Rules is how the session remembers "always" answers, or nil.
func (s *Session) Rules() Rules { return s.parts.Rules }

// Commands are the user's own slash commands.
func (s *Session) Commands() []Command { return s.parts.Commands }

// CanUndo reports whether the session keeps checkpoints for /undo.
func (s *Session) CanUndo() bool { return s.parts.Checkpoints != nil }

// Apply makes settings take effect from the next model request.
func (s *Session) Apply(settings Settings) {
	if s.parts.Apply != nil {
		s.parts.Apply(settings)
	}
}

// Busy reports whether a turn is running.
func (s *Session) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// TurnFunc is what a turn does, given what a turn may do.
type TurnFunc func(ctx context.Context, t *Turn) (session.StopReason, error)

// Run runs one turn under the session's one turn guard. What the user
// should be told is logged first. A turn asked for while another runs
// waits for it (turns run in the order they were asked for); one of a
// closing session is refused with ErrClosed. A cancelled turn (Cancel, or
// ctx) ends with session.StopCancelled and a nil error, whatever turn
// returned; so does one cancelled while it waits.
func (s *Session) Run(ctx context.Context, turn TurnFunc) (session.StopReason, error) {
	run, err := s.Reserve()
	if err != nil {
		return "", err
	}
	return run(ctx, turn)
}

// Reserve takes a turn's place in the order now, for a turn that runs
// later, on a goroutine of the caller's: run runs it as Run would have
// when Reserve was called (a Cancel in between drops it). The caller must
// call run exactly once.
func (s *Session) Reserve() (run func(ctx context.Context, turn TurnFunc) (session.StopReason, error), err error) {
	w, err := s.join()
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, turn TurnFunc) (session.StopReason, error) {
		return s.runJoined(ctx, w, turn)
	}, nil
}

// runJoined runs turn once w's place comes.
func (s *Session) runJoined(ctx context.Context, w *waiter, turn TurnFunc) (session.StopReason, error) {
	turnCtx, end, err := s.enter(ctx, w)
	switch {
	case errors.Is(err, errDropped) || err != nil && ctx.Err() != nil:
		return session.StopCancelled, nil
	case err != nil:
		return "", err
	}
	defer end()
	s.tellPending()
	reason, err := turn(turnCtx, &Turn{s: s})
	if turnCtx.Err() != nil {
		return session.StopCancelled, nil
	}
	return reason, err
}

// Prompt runs one model turn for content, as Run with Turn.Prompt.
func (s *Session) Prompt(ctx context.Context, content []presentation.ContentBlock) (session.StopReason, error) {
	return s.Run(ctx, func(ctx context.Context, t *Turn) (session.StopReason, error) {
		return t.Prompt(ctx, content)
	})
}

// errDropped is enter's answer to a turn that Cancel or Close dropped
// before it started.
var errDropped = errors.New("the turn was cancelled before it started")

// join takes a turn's place: last in the queue, or, when no turn runs or
// waits, the turn itself (s.claimed), at once.
func (s *Session) join() (*waiter, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	w := &waiter{ready: make(chan struct{})}
	if s.running || len(s.queue) > 0 {
		s.queue = append(s.queue, w)
		return w, nil
	}
	s.running, s.claimed = true, w
	close(w.ready)
	return w, nil
}

// enter starts w's turn once the turns before it ended: its context, and
// end, which the turn must call when it is over.
func (s *Session) enter(ctx context.Context, w *waiter) (context.Context, func(), error) {
	if err := s.await(ctx, w); err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	switch {
	case s.claimed != w: // dropped from the queue
		s.mu.Unlock()
		return nil, nil, errDropped
	case w.cancelled || s.closed: // dropped, or closed, once it was its turn
		s.claimed = nil
		s.handOver()
		s.mu.Unlock()
		if w.cancelled {
			return nil, nil, errDropped
		}
		return nil, nil, ErrClosed
	}
	s.claimed = nil
	turnCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	s.stop, s.done = stop, done
	s.mu.Unlock()
	end := func() {
		stop()
		s.mu.Lock()
		s.stop = nil
		close(done)
		s.handOver()
		s.mu.Unlock()
	}
	return turnCtx, end, nil
}

// await waits until w's place comes (nil; enter then tells whether it
// still has it) or ctx ends first (then w gives up its place, handing the
// turn on when it had been given it).
func (s *Session) await(ctx context.Context, w *waiter) error {
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.queue, w); i >= 0 {
		s.queue = slices.Delete(s.queue, i, i+1)
	} else if s.claimed == w {
		s.claimed = nil
		s.handOver()
	}
	return ctx.Err()
}

// handOver gives the turn to the first waiting, or marks the session idle;
// s.mu is held.
func (s *Session) handOver() {
	if len(s.queue) == 0 {
		s.running = false
		return
	}
	next := s.queue[0]
	s.queue = s.queue[1:]
	s.claimed = next
	close(next.ready) // running stays true: it is next's now
}

// dropQueue cancels every waiting turn, and the one given the turn that
// has not started yet; s.mu is held.
func (s *Session) dropQueue() {
	if s.claimed != nil {
		s.claimed.cancelled = true
	}
	for _, w := range s.queue {
		w.cancelled = true
		close(w.ready)
	}
	s.queue = nil
}

// Cancel ends the running turn, if any, and every turn waiting for it;
// each ends as cancelled.
func (s *Session) Cancel() {
	s.mu.Lock()
	stop := s.stop
	s.dropQueue()
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Close refuses new turns, cancels and awaits the running one, then stops
// the session's background work. Later calls do nothing.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.dropQueue()
	stop, done := s.stop, s.done
	s.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	if s.parts.Stop != nil {
		s.parts.Stop()
	}
}

// Turn is what a running turn may do: only a turn asks the model, undoes
// or compacts, so none of them can overlap another.
type Turn struct {
	s *Session
}

// Prompt runs a model turn for content, after a checkpoint of the
// workspace (when the session keeps them); the checkpoint of what the
// turn left is taken when it ends, cancelled or not. A failed checkpoint
// is logged, and the turn runs without it.
func (t *Turn) Prompt(ctx context.Context, content []presentation.ContentBlock) (session.StopReason, error) {
	s := t.s
	if cp := s.parts.Checkpoints; cp != nil {
		finish, err := cp.Checkpoint(ctx, turnLabel(s.parts.Log.Turn()+1))
		switch {
		case err != nil && ctx.Err() != nil:
			return session.StopCancelled, nil
		case err != nil:
			s.logger.Warn("no checkpoint before the turn: /undo cannot restore it", "err", err)
		default:
			defer s.finishTurn(ctx, finish)
		}
	}
	s.openSteering()
	defer s.closeSteering()
	return s.parts.Model.PromptSteered(ctx, content, steering{s})
}

// Compact summarizes the conversation now and returns how many turns the
// summary covers.
func (t *Turn) Compact(ctx context.Context) (int, error) {
	return t.s.parts.Model.Compact(ctx)
}

// ErrNoUndo is Undo's error in a session that keeps no checkpoints.
var ErrNoUndo = errors.New("this session keeps no checkpoints to undo")

// Undo reverts the files the last checkpointed turn changed, where they
// are still what it left, logs what was put back, and tells the model
// (at its next request) which files changed under it.
func (t *Turn) Undo(ctx context.Context) (Undone, error) {
	s := t.s
	if s.parts.Checkpoints == nil {
		return Undone{}, ErrNoUndo
	}
	undone, err := s.parts.Checkpoints.Undo(ctx)
	if err != nil {
		return Undone{}, err
	}
	if len(undone.Files) > 0 {
		s.parts.Log.Append(session.FilesRestored{Files: undone.Files})
	}
	if len(undone.Files)+len(undone.Conflicts) > 0 {
		s.parts.Log.Append(session.ContextMessage{Message: undoContext(undone)})
	}
	return undone, nil
}

// finishTimeout bounds the checkpoint at the end of a turn, which is
// taken even when the turn was cancelled.
const finishTimeout = 2 * time.Minute

// finishTurn takes the checkpoint at the end of a turn, cancelled or not:
// /undo compares with it, so that nothing changed after the turn is
// reverted.
func (s *Session) finishTurn(ctx context.Context, finish func(context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if err := finish(ctx); err != nil {
		s.logger.Warn("no checkpoint after the turn: /undo will not revert it", "err", err)
	}
}
