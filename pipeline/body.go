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

// bodyRun is the outcome of one run of a tool body: what it returned.
type bodyRun struct {
	value any
	err   error
}

// awaitBody runs tool's body for x's call under ctx and returns its value
// and error, with returned set. The wait ends early when ctx is done and
// the body has not returned within the pipeline's grace: returned is then
// false, and the body is abandoned. Its goroutine finishes on its own
// whenever the body returns; its outcome, its later reports and its later
// deferred contexts are discarded, so nothing it does after that moment
// changes the call.
//
// A body whose context can never be done runs on the caller's goroutine;
// any other runs on a goroutine of its own, so the caller can stop waiting.
func (x *Execution) awaitBody(ctx context.Context, tool *registry.Tool) (out bodyRun, returned bool) {
	x.progress.start()
	defer func() { x.progress.stop(!returned) }()
	call := x.call
	if ctx.Done() == nil {
		out.value, out.err = tool.Run(ctx, call)
		return out, true
	}
	// The outcome is written to x.body before the signal; the buffered
	// signal never blocks an abandoned body.
	x.bodyDone = make(chan struct{}, 1)
	go x.runBodyAsync(ctx, tool, call)
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

// runBodyAsync runs tool's body (on a goroutine of its own: see awaitBody),
// records what it returned in x.body and signals x.bodyDone.
func (x *Execution) runBodyAsync(ctx context.Context, tool *registry.Tool, call *registry.Call) {
	growStack(0)
	x.body.value, x.body.err = tool.Run(ctx, call)
	x.bodyDone <- struct{}{}
}

// growStack grows a new goroutine's stack in one step while the stack is
// still shallow. Without it the stack starts at its minimum and doubles
// frame by frame as the body's argument decoding goes deeper, each time
// copying the deeper stack: a third of a cheap call's cost, measured by
// BenchmarkNoopThroughFullPipeline.
//
//go:noinline
func growStack(i int) byte {
	var frame [6 << 10]byte
	frame[i%len(frame)] = 1
	return frame[(i/2)%len(frame)]
}
