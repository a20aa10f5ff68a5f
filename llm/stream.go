package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// eventSource produces the raw events behind a [Stream]. next returns io.EOF
// at a clean end. A Stream calls next and close from one goroutine.
type eventSource interface {
	next(ctx context.Context) (Event, error)
	close() error
}

// Stream is one model step in progress. Iterate it like bufio.Scanner:
//
//	for s.Next() {
//		switch ev := s.Event().(type) { ... }
//	}
//	if err := s.Err(); err != nil { ... }
//	resp := s.Response()
//
// Next returns false at the end of the step or on the first error, and then
// the stream is closed; call Close only when stopping early. A Stream is not
// safe for concurrent use.
//
// A successful stream always delivers exactly one [Finish] event, preceded by
// one [ToolCallDone] per tool call in index order. When the context given to
// [Provider.Stream] is cancelled, Next returns false promptly and Err wraps
// the context's error, so errors.Is(err, context.Canceled) holds.
type Stream struct {
	ctx      context.Context
	src      eventSource
	queue    []Event // queue[head:] is not yet delivered
	head     int
	cur      Event
	err      error
	done     bool
	finished bool
	asm      assembler
}

func newStream(ctx context.Context, src eventSource) *Stream {
	return &Stream{ctx: ctx, src: src}
}

// Next advances to the next event and reports whether there is one.
func (s *Stream) Next() bool {
	if s.done {
		return false
	}
	if err := s.ctx.Err(); err != nil {
		s.end(fmt.Errorf("model stream stopped: %w", err))
		return false
	}
	if s.head == len(s.queue) {
		// Everything queued was delivered: refill from the start.
		s.queue, s.head = s.queue[:0], 0
	}
	for s.head == len(s.queue) {
		ev, err := s.src.next(s.ctx)
		switch {
		case err == nil:
			s.accept(ev)
		case errors.Is(err, io.EOF):
			if !s.finished {
				s.end(ErrIncompleteStream)
			} else {
				s.end(nil)
			}
			return false
		default:
			if ctxErr := s.ctx.Err(); ctxErr != nil {
				if errors.Is(err, ctxErr) {
					err = fmt.Errorf("model stream stopped: %w", err)
				} else {
					err = fmt.Errorf("model stream stopped: %w (%v)", ctxErr, err)
				}
			}
			s.end(err)
			return false
		}
	}
	s.cur = s.queue[s.head]
	s.queue[s.head] = nil
	s.head++
	return true
}

// Event returns the event Next advanced to.
func (s *Stream) Event() Event { return s.cur }

// Err returns the error that ended the stream, or nil after a clean end.
func (s *Stream) Err() error { return s.err }

// Response returns the assistant message assembled from the events delivered
// so far, with the finish reason and usage. After Next has returned false
// with a nil Err it is the complete result of the step.
func (s *Stream) Response() Response { return s.asm.response() }

// Close stops the stream and releases its connection. It is safe to call
// more than once and after Next returned false.
func (s *Stream) Close() error {
	if s.done {
		return nil
	}
	s.done = true
	s.queue, s.head = nil, 0
	return s.src.close()
}

func (s *Stream) end(err error) {
	s.err = err
	_ = s.Close()
}

// accept records ev in the assembler and queues what the caller will see.
func (s *Stream) accept(ev Event) {
	if s.finished {
		// Nothing but usage counts after the finish.
		if u, ok := ev.(UsageReport); ok {
			s.asm.usage = u.Usage
			s.queue = append(s.queue, u)
		}
		return
	}
	switch e := ev.(type) {
	case TextDelta:
		if e.Text == "" {
			return
		}
		s.asm.text.WriteString(e.Text)
	case ReasoningDelta:
		if e.Text == "" {
			return
		}
		s.asm.reasoning.WriteString(e.Text)
	case ToolCallDelta:
		s.asm.addToolCallDelta(e)
	case UsageReport:
		s.asm.usage = e.Usage
	case Finish:
		s.finished = true
		if e.Reason == FinishStop && len(s.asm.calls) > 0 {
			// Some servers say "stop" although they called tools.
			e.Reason = FinishToolCalls
		}
		s.asm.finish = e.Reason
		for i, call := range s.asm.toolCalls() {
			s.queue = append(s.queue, ToolCallDone{Index: s.asm.order[i], Call: call})
		}
		ev = e
	case RetryNotice:
	default:
		panic(fmt.Sprintf("llm: unknown event type %T", ev))
	}
	s.queue = append(s.queue, ev)
}

// Response is the outcome of one model step.
type Response struct {
	// Message is the assistant message: text, reasoning and complete tool
	// calls in model order. Its Role is always RoleAssistant.
	Message Message
	// FinishReason is the normalized reason the step ended ("" if the
	// stream failed before finishing).
	FinishReason FinishReason
	// Usage is the token usage, zero if the server reported none.
	Usage Usage
}

// Collect drains s, calling fn (which may be nil) for every event as it
// arrives, and returns the assembled response. If fn returns an error the
// stream is closed and that error is returned. Collect always closes s.
func Collect(s *Stream, fn func(Event) error) (Response, error) {
	defer s.Close()
	for s.Next() {
		if fn == nil {
			continue
		}
		if err := fn(s.Event()); err != nil {
			return s.Response(), err
		}
	}
	return s.Response(), s.Err()
}

// StreamOf returns a Stream that delivers events in order, the way a
// provider built from events it already knows (a test double, a replay)
// answers. It succeeds only if the events include a Finish.
func StreamOf(ctx context.Context, events ...Event) *Stream {
	return newStream(ctx, &eventList{events: append([]Event(nil), events...)})
}
