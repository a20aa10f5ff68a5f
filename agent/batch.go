package agent

import (
	"context"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/session"
)

// slot is one started call of a batch.
type slot struct {
	ref     session.ToolCallRef
	callSeq int64
	x       *pipeline.Execution
	done    chan struct{}
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
		in := b.input(ref)
		if t.agent.opts.Pipeline.ExecutionMode(in) == pipeline.Exclusive {
			b.commit(true)
			b.start(ref, in, false)
			b.commit(true)
			continue
		}
		b.start(ref, in, true)
		b.commit(false)
	}
	b.commit(true)
	for _, ref := range calls[started:] {
		callSeq := t.log.Append(b.announce(ref, b.input(ref))).Seq
		b.record(ref, callSeq, pipeline.AbortedBeforeDispatch(), nil)
	}
	for _, c := range b.contexts {
		t.log.Append(c)
	}
	return b.concluded
}

// input is ref as the pipeline takes it, its arguments materialized once
// for classifying, announcing and running the call.
func (b *batch) input(ref session.ToolCallRef) pipeline.Input {
	in := pipeline.Input{
		CallID:    ref.ID,
		Name:      ref.Name,
		Arguments: ref.Arguments,
		Scope:     b.t.agent.opts.Scope,
		OnProgress: func(p registry.Progress) {
			if p.Output != "" {
				b.t.log.Append(session.ToolOutput{CallID: ref.ID, Output: p.Output})
			}
		},
	}
	if args, err := registry.MaterializeArguments(ref.Arguments); err == nil {
		in.Materialized = &args
	}
	return in
}

// start announces and prepares ref, then dispatches it: in the pool when
// parallel, inline otherwise.
func (b *batch) start(ref session.ToolCallRef, in pipeline.Input, parallel bool) {
	s := &slot{ref: ref, done: make(chan struct{})}
	s.callSeq = b.t.log.Append(b.announce(ref, in)).Seq
	s.x = b.t.agent.opts.Pipeline.Prepare(b.ctx, in)
	b.pending = append(b.pending, s)
	if !s.x.NeedsDispatch() {
		close(s.done)
		return
	}
	dispatch := func() {
		defer close(s.done)
		b.t.log.Append(session.ToolStarted{CallID: ref.ID})
		s.x.Dispatch()
	}
	if !parallel {
		dispatch()
		return
	}
	b.sem <- struct{}{}
	go func() {
		defer func() { <-b.sem }()
		dispatch()
	}()
}

// commit finishes and records the leading calls that are done, in model
// order; with wait it waits for every pending call.
func (b *batch) commit(wait bool) {
	for len(b.pending) > 0 {
		s := b.pending[0]
		if !wait {
			select {
			case <-s.done:
			default:
				return
			}
		}
		<-s.done
		b.pending = b.pending[1:]
		r := s.x.Finish()
		b.record(s.ref, s.callSeq, r, s.x.Call())
	}
}

// announce is the ToolCall event for ref, with the tool's pending card.
func (b *batch) announce(ref session.ToolCallRef, in pipeline.Input) session.ToolCall {
	ev := session.ToolCall{CallID: ref.ID, Name: ref.Name, Arguments: ref.Arguments}
	if tool := b.tool(ref.Name); tool != nil && in.Materialized != nil {
		ev.View = tool.PresentCall(*in.Materialized)
	}
	return ev
}

// record appends the ToolResult event for a finished call and keeps its
// contexts for the end of the batch.
func (b *batch) record(ref session.ToolCallRef, callSeq int64, r pipeline.Result, call *registry.Call) {
	ev := session.ToolResult{
		CallID: ref.ID, CallSeq: callSeq,
		Content: r.Content, IsError: r.IsError, Code: r.Code(), Meta: r.Meta,
	}
	if tool := b.tool(ref.Name); tool != nil && call != nil {
		ev.View = tool.PresentResult(call.Arguments(), r.ToolResult())
	}
	b.t.log.Append(ev)
	for _, c := range r.AdditionalContexts {
		b.contexts = append(b.contexts, session.ContextMessage{Message: c})
	}
	if r.ConcludesTurn && !r.IsError {
		b.concluded = true
	}
}

func (b *batch) tool(name string) *registry.Tool {
	return b.t.agent.opts.Pipeline.Registry().Get(name, b.t.agent.opts.Scope)
}
