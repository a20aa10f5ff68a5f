package pipeline

import (
	"context"
	"errors"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Dispatch runs the execute wrappers around the tool body, on the
// caller's goroutine. It does nothing unless the call was prepared for
// dispatch. The body always runs under the caller's cancellation fused
// with whatever context the wrappers pass in.
//
// Dispatch itself returns only when the body does. What it guarantees is
// that the call's result never waits for a body longer than the body's
// context allows: once that context is done (the caller cancelled, or
// TimeoutPolicy's deadline passed), a body that has not returned within
// Options.BodyGrace is abandoned — the call is settled at once as ABORTED,
// or TOOL_TIMEOUT under TimeoutPolicy, keeping only the contexts the body
// had deferred by then, and Settled is closed. The Dispatch running the
// abandoned body goes on until the body returns by itself (the pipeline
// cannot stop a body blocked where its context does not reach, such as a
// read of a FIFO); whatever the body returns, reports or defers after
// that moment is discarded. A scheduler that must not be held by such a
// body therefore runs Dispatch on a goroutine of its own and waits on
// Settled, not on Dispatch. Progress reports reach Input.OnProgress only
// while the call waits for the body.
func (x *Execution) Dispatch() {
	if x.stage != stageDispatch {
		return
	}
	r, err := x.runWrappers(x.caller, 0, true)
	if err != nil {
		x.settleDispatched(stageFinal, ErrorResult(err))
		return
	}
	r = x.fromWrappers(r)
	if deferred := x.call.Deferred(); len(deferred) > 0 {
		r.AdditionalContexts = append(deferred, r.AdditionalContexts...)
	}
	if !r.IsError && x.caller.Err() != nil {
		r = withContexts(aborted(x.invoked.Load()), r.AdditionalContexts)
	}
	x.settleDispatched(stagePost, r)
}

// settleDispatched records the result Dispatch reached, unless the body
// was abandoned and the call settled without it.
func (x *Execution) settleDispatched(s stage, r Result) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.bodyState != bodyAbandoned {
		x.settleLocked(s, r)
	}
}

// runWrappers runs the wrapper chain from index i; the last step runs the
// body and hands its result on marked as the body's (passOn). derived
// says ctx is known to carry the caller's cancellation: it is the
// caller's context, or derived from it by wrappers that pass on only what
// they derive.
func (x *Execution) runWrappers(ctx context.Context, i int, derived bool) (r Result, err error) {
	for i < len(x.wrappers) && !x.wrappers[i].appliesTo(x.call) {
		i++
	}
	if i == len(x.wrappers) {
		return passOn(x.runBody(ctx, derived)), nil
	}
	w, derives := x.wrappers[i].fn, x.wrappers[i].derives
	next := func(next context.Context) (Result, error) {
		return x.runWrappers(next, i+1, derived && (derives || next == ctx))
	}
	err = protect(func() (err error) {
		r, err = w(ctx, x.call, next)
		return err
	})
	return r, err
}

// runBody resolves the live tool and runs it under ctx fused with the
// caller's cancellation, unless derived says ctx carries it already.
func (x *Execution) runBody(ctx context.Context, derived bool) Result {
	fused := ctx
	if !derived {
		var stop func() bool
		var cancel context.CancelCauseFunc
		fused, stop, cancel = fuse(x.caller, ctx)
		defer release(stop, cancel)
	}
	if fused.Err() != nil {
		return AbortedBeforeDispatch()
	}
	tool := x.p.reg.Get(x.call.Name(), x.call.Scope())
	if tool == nil {
		return ErrorResult(registry.NotFoundError(x.call.Name()))
	}
	x.invoked.Store(true)
	run, returned := x.runBodyWatched(fused, x.boundTo(tool))
	if !returned {
		return aborted(true)
	}
	out, err := run.out, run.err
	if err != nil {
		if fused.Err() != nil && isContextError(err) {
			// The body only reports the cancellation it was told of.
			return aborted(true)
		}
		return ErrorResult(err)
	}
	if fused.Err() != nil {
		return aborted(true)
	}
	return Result{
		Content:       out.Content,
		Value:         out.Value,
		Meta:          out.Meta,
		ConcludesTurn: x.call.Concludes(),
	}
}

// isContextError reports whether err is a context's own cancellation
// error rather than a failure the tool describes.
func isContextError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// passOn is the body's result r as ExecuteNext hands it to a wrapper: a
// copy of its own, marked with r, so that whatever the wrapper does to the
// copy, returning it stands for r (fromWrappers).
func passOn(r Result) Result {
	out := r.Clone()
	out.body = &r
	return out
}

// fromWrappers is the result the wrapper chain reached. One marked as the
// body's (passOn) is the body's outcome as the body made it, with the
// contexts the wrappers attached to it; anything else the wrappers
// authored, and it is normalized.
func (x *Execution) fromWrappers(r Result) Result {
	if r.body == nil {
		return x.normalizeAuthored(r)
	}
	out := *r.body
	out.AdditionalContexts = r.AdditionalContexts
	return out
}

// normalizeAuthored re-shapes a result an execute wrapper authored: a
// failure keeps only the failure's fields; a success is re-validated and
// re-rendered by the live tool.
func (x *Execution) normalizeAuthored(r Result) Result {
	contexts := registry.CloneContexts(r.AdditionalContexts)
	if r.IsError {
		info := &ErrorInfo{Message: presentation.JoinText(r.Content)}
		if r.Error != nil {
			e := *r.Error
			info = &e
		}
		out := failure(info)
		if len(r.Content) > 0 {
			out.Content = presentation.CloneContent(r.Content)
		}
		out.Meta = r.Meta
		out.AdditionalContexts = contexts
		return out
	}
	if r.Value == "" {
		return withContexts(ErrorResult(errWrapperNoOutcome), contexts)
	}
	tool := x.p.reg.Get(x.call.Name(), x.call.Scope())
	if tool == nil {
		return withContexts(ErrorResult(registry.NotFoundError(x.call.Name())), contexts)
	}
	out, err := x.boundTo(tool).Revalidate(r.Value, x.call.TopLevel())
	if err != nil {
		return withContexts(ErrorResult(err), contexts)
	}
	return Result{
		Content:            out.Content,
		Value:              out.Value,
		Meta:               out.Meta,
		AdditionalContexts: contexts,
		ConcludesTurn:      r.ConcludesTurn,
	}
}
