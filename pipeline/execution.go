package pipeline

import (
	"context"
	"sync/atomic"

	"github.com/dsh-acp/dsh-acp/registry"
)

// stage is where an Execution stands.
type stage int

const (
	// stageDispatch: prepared, the body has still to be dispatched.
	stageDispatch stage = iota
	// stagePost: a result awaits post-execute.
	stagePost
	// stageFinal: a result skips post-execute.
	stageFinal
	// stageDone: Finish has returned.
	stageDone
)

// Execution is one call moving through the pipeline, for schedulers that
// run the stages apart: Prepare (pre-execute and guards) in model order,
// Dispatch (wrappers and body) overlapped with other calls, Finish
// (post-execute, finalize, observers) in model order again. Execute does
// all three in a row. An Execution is used by one goroutine at a time.
type Execution struct {
	p        *Pipeline
	caller   context.Context
	call     *registry.Call
	finalize registry.Finalizer

	chains

	stage   stage
	result  Result
	invoked atomic.Bool
	// produced is the result the body step made, to tell it from results
	// the wrappers authored.
	produced Result

	// progress forwards the body's reports while the call waits for it.
	progress progressGate
	// abandoned says a body was left running after its context ended;
	// kept holds the contexts it had deferred by then, the only ones of
	// the call that still count.
	abandoned bool
	kept      []registry.ContextMessage
	// body is what a body running on a goroutine of its own returned; its
	// goroutine writes it before signalling bodyDone, and nothing reads it
	// once the body is abandoned.
	body     bodyRun
	bodyDone chan struct{}
}

// Call returns the call being executed.
func (x *Execution) Call() *registry.Call { return x.call }

// NeedsDispatch reports whether Dispatch has work to do.
func (x *Execution) NeedsDispatch() bool { return x.stage == stageDispatch }

// Prepare creates the call, materializes its arguments and runs the
// pre-execute chain, any approval and the guards.
func (p *Pipeline) Prepare(ctx context.Context, in Input) *Execution {
	x := &Execution{p: p, caller: ctx, chains: p.snapshot()}
	if tool := p.reg.Get(in.Name, in.Scope); tool != nil {
		x.finalize = tool.Finalizer()
	}
	spec := registry.CallSpec{ID: in.CallID, RootID: in.RootCallID, Name: in.Name, Scope: in.Scope, Parent: in.Parent}
	if in.OnProgress != nil {
		x.progress.fn = in.OnProgress
		spec.OnProgress = x.progress.report
	}
	args, err := in.arguments()
	if err != nil {
		x.call = registry.NewCall(spec)
		x.settle(stageFinal, ErrorResult(err))
		return x
	}
	spec.Arguments = args
	x.call = registry.NewCall(spec)
	if ctx.Err() != nil {
		x.settle(stageFinal, AbortedBeforeDispatch())
		return x
	}
	x.prepare()
	return x
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

func (x *Execution) settle(s stage, r Result) {
	x.stage = s
	x.result = r
}
