package pipeline

import (
	"context"
	"errors"
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

// bodyState is where the body a Dispatch runs stands, for the watchdog.
type bodyState int

const (
	// bodyIdle: no body is running.
	bodyIdle bodyState = iota
	// bodyRunning: a body runs and the call waits for it.
	bodyRunning
	// bodyAbandoned: the watchdog gave up on a body and settled the call
	// without it; nothing the Dispatch does afterwards counts.
	bodyAbandoned
)

// runBodyWatched runs the body of the tool bound in b for x's call under
// ctx, on the goroutine that called Dispatch, and returns its outcome with
// returned set. When ctx can end, a watchdog waits for it (no goroutine
// exists until ctx is done): once ctx is done and the body has not
// returned within the pipeline's grace, the watchdog abandons it (see
// abandon) and returned is false when the body finally comes back.
func (x *Execution) runBodyWatched(ctx context.Context, b registry.Bound) (out bodyRun, returned bool) {
	x.mu.Lock()
	if x.bodyState == bodyAbandoned {
		// A wrapper ran the body again after the call was settled without it.
		x.mu.Unlock()
		return bodyRun{}, false
	}
	x.bodyState = bodyRunning
	x.bodyRuns++
	run := x.bodyRuns
	x.mu.Unlock()

	x.progress.start()
	var stop func() bool
	if ctx.Done() != nil {
		stop = context.AfterFunc(ctx, func() { x.bodyContextDone(ctx, run) })
	}
	out.out, out.err = b.Run(ctx, x.call)
	if stop != nil {
		stop()
	}

	x.mu.Lock()
	returned = x.bodyState != bodyAbandoned
	if returned {
		x.bodyState = bodyIdle
	}
	grace := x.grace
	x.grace = nil
	x.mu.Unlock()
	if grace != nil {
		grace.Stop()
	}
	x.progress.stop(false)
	return out, returned
}

// bodyContextDone is the watchdog of body run number run, started when its
// context ctx is done: it abandons the body at once without a grace, or
// after the grace unless the body returns first.
func (x *Execution) bodyContextDone(ctx context.Context, run int) {
	if x.p.grace <= 0 {
		x.abandon(ctx, run)
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.bodyState == bodyRunning && x.bodyRuns == run {
		x.grace = time.AfterFunc(x.p.grace, func() { x.abandon(ctx, run) })
	}
}

// abandon gives up on body run number run, unless it has returned: the
// progress gate is sealed (a report being delivered finishes first), the
// call is settled as the failure today's context ended it with (ABORTED,
// or TOOL_TIMEOUT when TimeoutPolicy's deadline ended it), carrying only
// the contexts the body had deferred so far, and Settled is closed. The
// Dispatch that runs the body finishes on its own whenever the body
// returns; what it produces then is discarded.
func (x *Execution) abandon(ctx context.Context, run int) {
	x.mu.Lock()
	if x.bodyState != bodyRunning || x.bodyRuns != run {
		x.mu.Unlock()
		return
	}
	x.bodyState = bodyAbandoned
	x.mu.Unlock()

	x.progress.stop(true)
	cause := context.Cause(ctx)
	r := aborted(true)
	if timeout := (*TimeoutError)(nil); errors.As(cause, &timeout) {
		// What TimeoutPolicy makes of a body its deadline ended.
		r = x.normalizeAuthored(ErrorResult(timeout))
	}
	if deferred := x.call.Deferred(); len(deferred) > 0 {
		r.AdditionalContexts = deferred
	}
	x.mu.Lock()
	x.settleLocked(stagePost, r)
	x.mu.Unlock()
	x.p.logger.Warn("tool body abandoned: it did not return after its context ended",
		"tool", x.call.Name(), "call", x.call.ID(), "grace", x.p.grace, "cause", cause)
}
