package session

import (
	"slices"
	"sync"
	"time"
)

// Log is a session's append-only event log, kept in memory. It is safe for
// concurrent use; appends are totally ordered, and subscribers see every
// event exactly once, in that order, numbered 1, 2, 3 ….
//
// What the log keeps is the same history in fewer events: a run of
// streamed pieces — consecutive AssistantChunk events of the same kind
// (text or reasoning), or consecutive ToolOutput events of the same call —
// is kept as one event holding the run's whole text, with the Seq, Time
// and Turn of its first piece, once the run has ended (the next event is
// not of it). A model streams a word or so per piece, and an event per
// piece would cost many times the text it carries.
type Log struct {
	now func() time.Time

	mu          sync.Mutex
	events      []Event
	seq         int64
	turn        int
	run         int // index of the open run's first event in events, or -1
	sink        Sink
	subscribers []*subscriber
}

// Sink receives each event as it is appended, before any subscriber sees
// it: every event, streamed pieces included one by one, in append order,
// while the log is locked. A Sink must not append to the log and should
// not block (a Journal only buffers).
type Sink interface {
	Write(Event)
}

type subscriber struct {
	fn func(Event)
}

// NewLog returns an empty log; now stamps the events (time.Now when nil).
func NewLog(now func() time.Time) *Log {
	if now == nil {
		now = time.Now
	}
	return &Log{now: now, run: -1}
}

// RestoreLog returns a log holding events already recorded, such as those
// a Store loaded: Events returns them, and no subscriber or sink is called
// for them. Numbering continues after them: the next event's Seq follows
// the highest Seq among them, and the next TurnStarted opens the turn
// after the highest Turn. events should be merged the way Events returns
// them; the log keeps its own copy. now stamps new events (time.Now when
// nil).
func RestoreLog(events []Event, now func() time.Time) *Log {
	l := NewLog(now)
	l.events = slices.Clone(events)
	for _, ev := range events {
		l.seq = max(l.seq, ev.Seq)
		l.turn = max(l.turn, ev.Turn)
	}
	return l
}

// SetSink makes s receive every event appended from now on (see Sink);
// nil detaches the current sink.
func (l *Log) SetSink(s Sink) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sink = s
}

// Append records p and hands the event to the sink, then to every
// subscriber, before it returns. A TurnStarted payload opens the next turn; later events belong
// to it. Subscribers run while the log is locked, so they must not append
// and should return quickly.
func (l *Log) Append(p Payload) Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := p.(TurnStarted); ok {
		l.turn++
	}
	l.seq++
	ev := Event{Seq: l.seq, Time: l.now(), Turn: l.turn, Payload: p}
	l.extendRun(p)
	l.events = append(l.events, ev)
	if l.sink != nil {
		l.sink.Write(ev)
	}
	for _, s := range l.subscribers {
		s.fn(ev)
	}
	return ev
}

// Events returns a copy of the events kept so far, in order: every event
// appended, except that each ended run of streamed pieces is one event
// (see Log).
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.events)
}

// Len returns the number of events Events would return.
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
