package bridge

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/acp"
)

// notifier sends one session/update to the client.
type notifier interface {
	SessionUpdate(ctx context.Context, sessionID string, u acp.Update) error
}

// outboxInterval is the least time between two bursts of live terminal
// output of one session: at most about 20 a second reach the editor. An
// update that is not live output (a call's end, the answer's text) ends
// the wait: it goes out at once, with the output queued before it.
const outboxInterval = 50 * time.Millisecond

// outbox sends one session's updates from its own goroutine, in the order
// they were pushed, so the session log never waits for the client.
// Updates that queued up while earlier ones were being sent are merged
// when they are sent, never by waiting: consecutive text chunks of one
// kind become one chunk (see mergeTextChunks); consecutive live-output
// updates of a call are merged too: terminal output deltas are
// concatenated (into the final update when it follows), and a call's
// whole-output content updates keep only the latest.
type outbox struct {
	sessionID string
	to        notifier
	logger    *slog.Logger
	interval  time.Duration
	// persist, when set, runs before each batch is sent: the events the
	// batch shows are on disk before the editor sees them. It is set
	// before the first push, which orders it before its every use.
	persist func()

	mu       sync.Mutex
	queue    []acp.Update
	pushed   int
	sent     int
	progress chan struct{}

	wake  chan struct{}
	hurry chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

func newOutbox(sessionID string, to notifier, logger *slog.Logger) *outbox {
	o := &outbox{
		sessionID: sessionID, to: to, logger: logger, interval: outboxInterval,
		progress: make(chan struct{}),
		wake:     make(chan struct{}, 1), hurry: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	go o.run()
	return o
}

// push queues updates; it never blocks on the client. Live output waits
// out the interval after the last burst; anything else hurries it.
func (o *outbox) push(updates ...acp.Update) {
	if len(updates) == 0 {
		return
	}
	o.mu.Lock()
	o.queue = append(o.queue, updates...)
	o.pushed += len(updates)
	o.mu.Unlock()
	if !allLiveOutput(updates) {
		signal(o.hurry)
	}
	signal(o.wake)
}

// allLiveOutput reports whether every update is live output of a running
// call (what the interval paces).
func allLiveOutput(updates []acp.Update) bool {
	for _, item := range updates {
		u, ok := item.(acp.ToolCallUpdate)
		if !ok || !(isOutputDelta(u) || isOutputSnapshot(u)) {
			return false
		}
	}
	return true
}

// flush returns once every update pushed before the call has been sent,
// or ctx is done.
func (o *outbox) flush(ctx context.Context) error {
	o.mu.Lock()
	target := o.pushed
	o.mu.Unlock()
	signal(o.hurry)
	signal(o.wake)
	for {
		o.mu.Lock()
		sent, progress := o.sent, o.progress
		o.mu.Unlock()
		if sent >= target {
			return nil
		}
		select {
		case <-progress:
		case <-o.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// close sends what is queued and stops the outbox.
func (o *outbox) close() {
	select {
	case <-o.stop:
	default:
		close(o.stop)
	}
	<-o.done
}

func (o *outbox) run() {
	defer close(o.done)
	for {
		select {
		case <-o.wake:
		case <-o.stop:
			o.sendBatch()
			return
		}
		if live := o.sendBatch(); live {
			select {
			case <-time.After(o.interval):
			case <-o.hurry:
			case <-o.stop:
			}
		}
	}
}

// sendBatch sends everything queued and reports whether it held live
// output (so the next burst waits a little).
func (o *outbox) sendBatch() (live bool) {
	o.mu.Lock()
	batch := o.queue
	o.queue = nil
	o.mu.Unlock()
	n := len(batch)
	if n == 0 {
		return false
	}
	if o.persist != nil {
		o.persist()
	}
	updates, live := coalesce(mergeTextChunks(batch))
	for _, u := range updates {
		if err := o.to.SessionUpdate(context.Background(), o.sessionID, u); err != nil {
			o.logger.Warn("session/update not delivered", "session", o.sessionID, "err", err)
		}
	}
	o.mu.Lock()
	o.sent += n
	close(o.progress)
	o.progress = make(chan struct{})
	o.mu.Unlock()
	return live
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// coalesce merges a batch's live-output updates per call, keeping every
// other update where it was.
func coalesce(batch []acp.Update) (out []acp.Update, live bool) {
	open := map[string]int{} // call id → index in out of its open live update
	for _, item := range batch {
		u, ok := item.(acp.ToolCallUpdate)
		if !ok {
			out = append(out, item)
			continue
		}
		prev, hasPrev := open[u.ToolCallID]
		switch {
		case isOutputDelta(u):
			live = true
			if hasPrev {
				if p := out[prev].(acp.ToolCallUpdate); isOutputDelta(p) {
					out[prev] = withData(p, p.Meta.TerminalOutput.Data+u.Meta.TerminalOutput.Data)
					continue
				}
			}
			open[u.ToolCallID] = len(out)
			out = append(out, u)
		case isOutputSnapshot(u):
			live = true
			if hasPrev && isOutputSnapshot(out[prev].(acp.ToolCallUpdate)) {
				out[prev] = u
				continue
			}
			open[u.ToolCallID] = len(out)
			out = append(out, u)
		default:
			delete(open, u.ToolCallID)
			if hasPrev && isFinalOutput(u) {
				if p := out[prev].(acp.ToolCallUpdate); isOutputDelta(p) {
					out[prev] = withData(u, p.Meta.TerminalOutput.Data+u.Meta.TerminalOutput.Data)
					continue
				}
			}
			out = append(out, u)
		}
	}
	return out, live
}

// isOutputDelta: live terminal output, to be appended by the editor.
func isOutputDelta(u acp.ToolCallUpdate) bool {
	return u.Status == "" && u.Content == nil && u.Meta != nil && u.Meta.TerminalOutput != nil && u.Meta.TerminalExit == nil
}

// isOutputSnapshot: a call's whole output so far, replacing its content.
func isOutputSnapshot(u acp.ToolCallUpdate) bool {
	return u.Status == "" && u.Content != nil && u.Meta == nil
}

// isFinalOutput: a completed terminal card.
func isFinalOutput(u acp.ToolCallUpdate) bool {
	return u.Status != "" && u.Meta != nil && u.Meta.TerminalOutput != nil
}

func withData(u acp.ToolCallUpdate, data string) acp.ToolCallUpdate {
	meta := *u.Meta
	out := *meta.TerminalOutput
	out.Data = data
	meta.TerminalOutput = &out
	u.Meta = &meta
	return u
}
