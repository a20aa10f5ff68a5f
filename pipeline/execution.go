package pipeline

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// stage is where an Execution stands.
type stage int

const (
	// stageBound: bound, not yet prepared.
	stageBound stage = iota
	// stageDispatch: prepared, the body has still to be dispatched.
	stageDispatch
	// stagePost: a result awaits post-execute.
	stagePost
	// stageFinal: a result skips post-execute.
	stageFinal
	// stageDone: Finish has returned.
	stageDone
)

// Execution is one call moving through the pipeline, for schedulers that
// run the stages apart: Bind (the call's arguments bound to its tool once,
// answering Mode and PresentCall), Prepare (pre-execute and guards) in
// model order, Dispatch (wrappers and body) overlapped with other calls,
// Finish (post-execute, finalize, observers) in model order again, then
// PresentResult. Execute does it all in a row.
//
// An Execution is used by one goroutine at a time, with one exception: a
// scheduler may run Dispatch on a goroutine of its own and, on another,
// wait on Settled and then call Finish and PresentResult, even while an
// abandoned body still holds that Dispatch. Only that way does a stuck
// body never hold the scheduler (see Dispatch); Execute gives no such
// guarantee.
type Execution struct {
	p        *Pipeline
	caller   context.Context
	call     *registry.Call
	finalize registry.Finalizer
	// bindErr is why the arguments could not be materialized; the call
	// fails with it when prepared.
	bindErr error

	chains

	stage   stage
	result  Result
	invoked atomic.Bool

	// progress forwards the body's reports while the call waits for it.
	progress progressGate

	// mu guards what the watchdog of a body (see runBodyWatched) shares
	// with Dispatch and with Settled's callers: the stage and result once
	// Dispatch has begun, and the fields below.
	mu sync.Mutex
	// bodyState says whether a body runs or was abandoned; bodyRuns
	// numbers the runs, so a late watchdog cannot act on a later run.
	bodyState bodyState
	bodyRuns  int
	// grace is the timer that abandons a running body whose context is
	// done, once armed.
	grace *time.Timer
	// settled is closed once the result is settled; made on demand.
	settled chan struct{}
}

// Call returns the call being executed.
func (x *Execution) Call() *registry.Call { return x.call }

// NeedsDispatch reports whether Dispatch has work to do.
func (x *Execution) NeedsDispatch() bool { return x.stage == stageDispatch }

// Bind starts one call of in: it resolves the tool in's scope sees,
// materializes the arguments and binds them to the tool (Tool.Bind), once;
// every later stage and question asks that binding. Arguments that cannot
// be materialized, an unknown tool and arguments that do not fit it are
// not errors here: the call fails with them where it always would, when
// prepared or when its body would run.
func (p *Pipeline) Bind(in Input) *Execution {
	x := &Execution{p: p}
	spec := registry.CallSpec{ID: in.CallID, RootID: in.RootCallID, Name: in.Name, Scope: in.Scope, Parent: in.Parent}
	if in.OnProgress != nil {
		x.progress.fn = in.OnProgress
		spec.OnProgress = x.progress.report
	}
	tool := p.reg.Get(in.Name, in.Scope)
	if tool != nil {
		x.finalize = tool.Finalizer()
	}
	args, err := registry.MaterializeArguments(in.Arguments)
	if err != nil {
		x.bindErr = err
		x.call = registry.NewCall(spec)
		return x
	}
	spec.Arguments = args
	if tool != nil {
		spec.Bound, _ = tool.Bind(args)
	}
	x.call = registry.NewCall(spec)
	return x
}

// Mode says whether the call may run beside others: Parallel only when
// its tool is visible to the call's scope and the tool's classifier says
// exactly true for the arguments; anything else (unknown tool, no
// classifier, arguments that do not fit, a panic) is Exclusive.
func (x *Execution) Mode() ExecutionMode {
	if x.call.Bound().ConcurrencySafe() {
		return Parallel
	}
	return Exclusive
}

// PresentCall returns the call's pending card, or nil when its tool has
// none for these arguments.
func (x *Execution) PresentCall() presentation.CallView { return x.call.Bound().PresentCall() }

// PresentResult returns the call's completed card for r, or nil when its
// tool has none.
func (x *Execution) PresentResult(r Result) presentation.ResultView {
	return x.call.Bound().PresentResult(r.ToolResult())
}

// Prepare binds in (Bind) and prepares the call (Execution.Prepare).
func (p *Pipeline) Prepare(ctx context.Context, in Input) *Execution {
	x := p.Bind(in)
	x.Prepare(ctx)
	return x
}

// Prepare runs the pre-execute chain, any approval and the guards under
// ctx, the caller's context for the rest of the call. Only the first call
// after Bind does anything.
func (x *Execution) Prepare(ctx context.Context) {
	if x.stage != stageBound {
		return
	}
	x.caller, x.chains = ctx, x.p.snapshot()
	if x.bindErr != nil {
		x.settle(stageFinal, ErrorResult(x.bindErr))
		return
	}
	if ctx.Err() != nil {
		x.settle(stageFinal, AbortedBeforeDispatch())
		return
	}
	x.prepare()
}

// boundTo returns the call's arguments bound to tool: the binding made by
// Bind, or a new one when the tool live now is not the one bound then.
func (x *Execution) boundTo(tool *registry.Tool) registry.Bound {
	if b := x.call.Bound(); b.Tool() == tool {
		return b
	}
	b, _ := tool.Bind(x.call.Arguments())
	return b
}

func (x *Execution) prepare() {
	ctx, call := x.caller, x.call
	decision, err := x.runPre(ctx, 0)
	if err != nil {
		x.settle(stageFinal, ErrorResult(err))
		return
	}
	approvalCancelled := false
	if decision.Kind == DecisionAsk {
		decision, approvalCancelled, err = x.p.resolveAsk(ctx, call, decision.Reason)
		if err != nil {
			x.settle(stageFinal, ErrorResult(err))
			return
		}
	}
	if approvalCancelled && ctx.Err() != nil {
		x.settle(stagePost, AbortedBeforeDispatch())
		return
	}
	reason := ""
	switch decision.Kind {
	case DecisionAllow:
		reason = x.p.reg.CheckGuards(call)
	case DecisionDeny:
		reason = decision.Reason
		if reason == "" {
			reason = "denied by policy"
		}
	default:
		x.settle(stageFinal, ErrorResult(errUnknownDecision(decision.Kind)))
		return
	}
	if reason != "" {
		x.settle(stagePost, denial(reason))
		return
	}
	if ctx.Err() != nil {
		x.settle(stagePost, AbortedBeforeDispatch())
		return
	}
	x.stage = stageDispatch
}

// runPre runs the pre-execute chain from index i.
func (x *Execution) runPre(ctx context.Context, i int) (d Decision, err error) {
	for i < len(x.pre) && !x.pre[i].appliesTo(x.call) {
		i++
	}
	if i == len(x.pre) {
		return Allow(), nil
	}
	m := x.pre[i].fn
	next := func(ctx context.Context) (Decision, error) { return x.runPre(ctx, i+1) }
	err = protect(func() (err error) {
		d, err = m(ctx, x.call, next)
		return err
	})
	return d, err
}

// Settled returns a channel closed once the call's result is settled:
// Prepare ended the call, Dispatch reached a result, or the body was
// abandoned (see Dispatch). From then on Finish returns without waiting
// for the body. It may be called from any goroutine, while Dispatch runs.
func (x *Execution) Settled() <-chan struct{} {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.settled == nil {
		x.settled = make(chan struct{})
		if x.stage > stageDispatch {
			close(x.settled)
		}
	}
	return x.settled
}

// settle records r as the call's result at stage s.
func (x *Execution) settle(s stage, r Result) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.settleLocked(s, r)
}

// settleLocked is settle with x.mu held; it closes Settled's channel when
// the call leaves dispatch.
func (x *Execution) settleLocked(s stage, r Result) {
	open := x.stage <= stageDispatch
	x.stage, x.result = s, r
	if open && s > stageDispatch && x.settled != nil {
		close(x.settled)
	}
}
