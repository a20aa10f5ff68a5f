package agent

import (
	"context"
	"sync"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// slot is one started call of a batch.
type slot struct {
	ref     session.ToolCallRef
	callSeq int64
	x       *pipeline.Execution
	// settled is closed once the call's result is settled, even while an
	// abandoned body still holds its Dispatch.
	settled <-chan struct{}
	// free gives the call's place in the pool back, once; nil for a call
	// outside the pool.
	free func()
}

// batch runs one assistant message's tool calls: in model order, each
// classified just before it starts; parallel-safe calls overlap in a
// rolling pool, an exclusive call runs alone as a barrier. Prepare
// (pre-execute, approval, guards) runs serially in model order; only
// dispatch overlaps; results are committed in model order.
type batch struct {
	t       *turn
	ctx     context.Context
	sem     chan struct{}
	pending []*slot

	contexts  []session.ContextMessage
	concluded bool
}

// runBatch runs calls and reports whether a result asked to end the turn.
// After cancellation nothing new starts; started calls are drained and
// committed, and the rest get ABORTED_BEFORE_DISPATCH results.
func (t *turn) runBatch(ctx context.Context, calls []session.ToolCallRef) (concluded bool) {
	b := &batch{t: t, ctx: ctx, sem: make(chan struct{}, t.agent.opts.MaxParallelToolCalls)}
	started := 0
	for ; started < len(calls) && ctx.Err() == nil; started++ {
		ref := calls[started]
		x := b.bind(ref)
		if x.Mode() == pipeline.Exclusive {
			b.commit(true)
			b.start(ref, x, false)
			b.commit(true)
			continue
		}
		b.start(ref, x, true)
		b.commit(false)
	}
	b.commit(true)
	for _, ref := range calls[started:] {
		callSeq := t.log.Append(b.announce(ref, b.bind(ref))).Seq
		b.record(ref, callSeq, pipeline.AbortedBeforeDispatch(), nil)
	}
	for _, c := range b.contexts {
		t.log.Append(c)
	}
	return b.concluded
}

// bind binds ref to its tool once, for classifying, announcing, running
// and presenting the call.
func (b *batch) bind(ref session.ToolCallRef) *pipeline.Execution {
	in := pipeline.Input{
		CallID:    ref.ID,
		Name:      ref.Name,
		Arguments: ref.Arguments,
		Scope:     b.t.agent.opts.Scope,
		Parent:    b.t.agent.opts.Parent,
		OnProgress: func(p registry.Progress) {
			if p.Output != "" {
				b.t.log.Append(session.ToolOutput{CallID: ref.ID, Output: p.Output})
			}
		},
	}
	if in.Parent != nil {
		in.RootCallID = in.Parent.RootID()
	}
	return b.t.agent.opts.Pipeline.Bind(in)
}

// start announces and prepares the call x binds ref to, then dispatches
// it on a goroutine of its own, taking a place in the pool when parallel.
// The batch waits on the call's Settled, never on its Dispatch, so a tool
// body the pipeline abandoned holds neither the turn nor a pool place.
func (b *batch) start(ref session.ToolCallRef, x *pipeline.Execution, parallel bool) {
	s := &slot{ref: ref, x: x}
	s.callSeq = b.t.log.Append(b.announce(ref, x)).Seq
	x.Prepare(b.ctx)
	s.settled = x.Settled()
	if !x.NeedsDispatch() {
		b.pending = append(b.pending, s)
		return
	}
	if parallel {
		b.acquire()
		var once sync.Once
		s.free = func() { once.Do(func() { <-b.sem }) }
	}
	b.pending = append(b.pending, s)
	go func() {
		b.t.log.Append(session.ToolStarted{CallID: ref.ID})
		x.Dispatch()
		if s.free != nil {
			s.free()
		}
	}()
}

// acquire takes a place in the pool. A call gives its place back when its
// Dispatch returns or when it is committed, whichever comes first; so
// while the pool is full, acquire commits the leading calls as they
// settle, which frees the places of calls whose abandoned bodies still
// hold their Dispatch.
func (b *batch) acquire() {
	for {
		if len(b.pending) == 0 {
			b.sem <- struct{}{}
			return
		}
		select {
		case b.sem <- struct{}{}:
			return
		case <-b.pending[0].settled:
			b.commit(false)
		}
	}
}

// commit finishes and records the leading calls that are settled, in
// model order; with wait it waits for every pending call to settle.
func (b *batch) commit(wait bool) {
	for len(b.pending) > 0 {
		s := b.pending[0]
		if !wait {
			select {
			case <-s.settled:
			default:
				return
			}
		}
		<-s.settled
		b.pending = b.pending[1:]
		if s.free != nil {
			s.free()
		}
		r := s.x.Finish()
		b.record(s.ref, s.callSeq, r, s.x)
	}
}

// announce is the ToolCall event for ref, with the tool's pending card.
func (b *batch) announce(ref session.ToolCallRef, x *pipeline.Execution) session.ToolCall {
	return session.ToolCall{CallID: ref.ID, Name: ref.Name, Arguments: ref.Arguments, View: x.PresentCall()}
}

// record appends the ToolResult event for a finished call (x nil for one
// that never started) and keeps its contexts for the end of the batch.
func (b *batch) record(ref session.ToolCallRef, callSeq int64, r pipeline.Result, x *pipeline.Execution) {
	ev := session.ToolResult{
		CallID: ref.ID, CallSeq: callSeq,
		Content: r.Content, IsError: r.IsError, Code: r.Code(), Meta: r.Meta,
	}
	if x != nil {
		ev.View = x.PresentResult(r)
	}
	b.t.log.Append(ev)
	for _, c := range r.AdditionalContexts {
		b.contexts = append(b.contexts, session.ContextMessage{Message: c})
	}
	if r.ConcludesTurn && !r.IsError {
		b.concluded = true
	}
}
