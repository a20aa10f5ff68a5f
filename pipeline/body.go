package pipeline

import (
	"context"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

// DefaultBodyGrace is how long a call waits for a tool body whose context
// is done, unless Options.BodyGrace says otherwise: long enough for a body
// that honours its context to stop what it runs and say so, short enough
// that a stuck body cannot hold a cancelled turn.
const DefaultBodyGrace = time.Second

// bodyRun is the outcome of one run of a tool body: the output built from
// what it returned, or its error.
type bodyRun struct {
	out registry.Output
	err error
}

// awaitBody runs the body of the tool bound in b for x's call under ctx and
// returns its outcome, with returned set. The wait ends early when ctx is done and
// the body has not returned within the pipeline's grace: returned is then
// false, and the body is abandoned. Its goroutine finishes on its own
// whenever the body returns; its outcome, its later reports and its later
// deferred contexts are discarded, so nothing it does after that moment
// changes the call.
//
// A body whose context can never be done runs on the caller's goroutine;
// any other runs on a goroutine of its own, so the caller can stop waiting.
func (x *Execution) awaitBody(ctx context.Context, b registry.Bound) (out bodyRun, returned bool) {
	x.progress.start()
	defer func() { x.progress.stop(!returned) }()
	call := x.call
	if ctx.Done() == nil {
		out.out, out.err = b.Run(ctx, call)
		return out, true
	}
	// The outcome is written to x.body before the signal; the buffered
	// signal never blocks an abandoned body.
	x.bodyDone = make(chan struct{}, 1)
	go x.runBodyAsync(ctx, b, call)
	select {
	case <-x.bodyDone:
		return x.body, true
	case <-ctx.Done():
	}
	if x.p.grace > 0 {
		grace := time.NewTimer(x.p.grace)
		defer grace.Stop()
		select {
		case <-x.bodyDone:
			return x.body, true
		case <-grace.C:
		}
	}
	// A body that returned just as the grace ran out still counts.
	select {
	case <-x.bodyDone:
		return x.body, true
	default:
	}
	if !x.abandoned {
		x.abandoned, x.kept = true, call.Deferred()
	}
	x.p.logger.Warn("tool body abandoned: it did not return after its context ended",
		"tool", call.Name(), "call", call.ID(), "grace", x.p.grace, "cause", context.Cause(ctx))
	return bodyRun{}, false
}

// runBodyAsync runs b's body (on a goroutine of its own: see awaitBody),
// records its outcome in x.body and signals x.bodyDone.
func (x *Execution) runBodyAsync(ctx context.Context, b registry.Bound, call *registry.Call) {
	growStack(0)
	x.body.out, x.body.err = b.Run(ctx, call)
	x.bodyDone <- struct{}{}
}

// growStack grows a new goroutine's stack in one step while the stack is
// still shallow. Without it the stack starts at its minimum and doubles
// frame by frame as the body, the value's snapshot and its rendering go
// deeper, each time copying the deeper stack (BenchmarkNoopThroughFullPipeline
// is slower without it, though the arguments are now decoded before the
// body's goroutine starts).
//
//go:noinline
func growStack(i int) byte {
	var frame [6 << 10]byte
	frame[i%len(frame)] = 1
	return frame[(i/2)%len(frame)]
}
