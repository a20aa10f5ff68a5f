package session

import (
	"slices"
	"sync"
	"time"
)

// Log is a session's append-only event log, kept in memory. It is safe for
// concurrent use; appends are totally ordered, and subscribers see every
// event exactly once, in that order.
type Log struct {
	now func() time.Time

	mu          sync.Mutex
	events      []Event
	turn        int
	subscribers []*subscriber
}

type subscriber struct {
	fn func(Event)
}

// NewLog returns an empty log; now stamps the events (time.Now when nil).
func NewLog(now func() time.Time) *Log {
	if now == nil {
		now = time.Now
	}
	return &Log{now: now}
}

// Append records p and hands the event to every subscriber before it
// returns. A TurnStarted payload opens the next turn; later events belong
// to it. Subscribers run while the log is locked, so they must not append
// and should return quickly.
func (l *Log) Append(p Payload) Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := p.(TurnStarted); ok {
		l.turn++
	}
	ev := Event{Seq: int64(len(l.events)) + 1, Time: l.now(), Turn: l.turn, Payload: p}
	l.events = append(l.events, ev)
	for _, s := range l.subscribers {
		s.fn(ev)
	}
	return ev
}

// Events returns a copy of every event so far.
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// Len returns the number of events so far.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.events)
}

// Turn returns the number of the latest turn (0 before the first).
func (l *Log) Turn() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.turn
}

// Subscribe calls fn with every event appended from now on, and returns
// the function that stops it.
func (l *Log) Subscribe(fn func(Event)) (stop func()) {
	s := &subscriber{fn: fn}
	l.mu.Lock()
	l.subscribers = append(slices.Clip(l.subscribers), s)
	l.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.subscribers = slices.DeleteFunc(slices.Clone(l.subscribers), func(x *subscriber) bool { return x == s })
		})
	}
}
