package llm

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Scripted is a [Provider] that replays a fixed list of assistant messages,
// one per request, in order, whatever the request says. It is what
// DSH_MODEL_SCRIPT selects, for tests and the demo.
//
// Each step streams its reasoning and then its text as several deltas split
// after white space, then each tool call (a fragment with id and name, then
// one with the arguments), then the finish reason: tool_calls when the step
// has tool calls, stop otherwise. A tool call without an id gets
// "call_<request>_<index>", request counting from 1 per provider and index
// from 0 within the step. Once the script is exhausted every request gets an
// empty message that finishes with stop. No usage is reported.
//
// A Scripted made by NewScripted keeps every request it receives, for
// tests to inspect with Requests; one made by ReadScript or LoadScript
// keeps none, since each request holds the whole conversation and keeping
// them all would grow memory with the square of a long session's length.
// KeepRequests changes that.
//
// A Scripted is safe for concurrent use; each instance has its own cursor.
type Scripted struct {
	mu       sync.Mutex
	steps    []Message
	next     int
	served   int
	keep     int // requests kept: all when negative
	requests []Request
}

// NewScripted returns a provider replaying steps that keeps every request
// it receives (see Requests). Only the Content, Reasoning and ToolCalls of
// each step are used.
func NewScripted(steps ...Message) *Scripted {
	return &Scripted{steps: slices.Clone(steps), keep: -1}
}

// KeepRequests sets how many of the latest requests p keeps for Requests:
// all of them when n is negative, none when n is 0. Requests already kept
// beyond the new bound are dropped. It returns p.
func (p *Scripted) KeepRequests(n int) *Scripted {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.keep = n
	p.trim()
	return p
}

// trim drops the oldest kept requests beyond the bound.
func (p *Scripted) trim() {
	if p.keep < 0 || len(p.requests) <= p.keep {
		return
	}
	drop := len(p.requests) - p.keep
	clear(p.requests[:drop]) // let the dropped conversations go
	p.requests = slices.Clip(p.requests[drop:])
	if len(p.requests) == 0 {
		p.requests = nil
	}
}

// Stream consumes the next step of the script. If ctx is already done it
// consumes nothing and returns an error wrapping ctx's error.
func (p *Scripted) Stream(ctx context.Context, req Request) (*Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("model stream stopped: %w", err)
	}
	p.mu.Lock()
	p.served++
	n := p.served
	if p.keep != 0 {
		p.requests = append(p.requests, req)
		p.trim()
	}
	var step Message
	if p.next < len(p.steps) {
		step = p.steps[p.next]
		p.next++
	}
	p.mu.Unlock()
	return newStream(ctx, &eventList{events: scriptedEvents(n, step)}), nil
}

// Requests returns the requests kept so far, oldest first: every request
// received, unless KeepRequests bounds them (see Scripted).
func (p *Scripted) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.requests)
}

// Remaining returns how many script steps have not been consumed yet.
func (p *Scripted) Remaining() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.steps) - p.next
}

// scriptedEvents lays out the events of one step for request number n.
func scriptedEvents(n int, step Message) []Event {
	var evs []Event
	for _, piece := range splitAfterSpace(step.Reasoning) {
		evs = append(evs, ReasoningDelta{Text: piece})
	}
	for _, piece := range splitAfterSpace(step.Content) {
		evs = append(evs, TextDelta{Text: piece})
	}
	for i, c := range step.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", n, i)
		}
		evs = append(evs,
			ToolCallDelta{Index: i, ID: id, Name: c.Name},
			ToolCallDelta{Index: i, Arguments: c.Arguments},
		)
	}
	reason := FinishStop
	if len(step.ToolCalls) > 0 {
		reason = FinishToolCalls
	}
	return append(evs, Finish{Reason: reason})
}

// eventList is an eventSource over a fixed list of events.
type eventList struct {
	events []Event
}

func (l *eventList) next(ctx context.Context) (Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(l.events) == 0 {
		return nil, io.EOF
	}
	ev := l.events[0]
	l.events = l.events[1:]
	return ev, nil
}

func (l *eventList) close() error {
	l.events = nil
	return nil
}
