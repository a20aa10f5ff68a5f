package registry

import (
	"context"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// Bound is one call's arguments bound to a tool by Tool.Bind: validated
// and decoded once, then answering every question the pipeline and its
// callers ask about the call — concurrency, paths, cards — and running it.
// A Bound is immutable and safe for concurrent use; the hooks it calls
// share its one decoded copy of the arguments and must only read it.
//
// The zero Bound is bound to nothing: it is not concurrency safe, has no
// paths (ok false) and no cards, and Run and Revalidate fail.
type Bound struct {
	b binding
}

// binding is what a typed or raw behavior makes of one call's arguments.
type binding interface {
	tool() *Tool
	arguments() Arguments
	run(ctx context.Context, call *Call) (Output, error)
	revalidate(value jsonvalue.Value, topLevel bool) (Output, error)
	concurrencySafe() bool
	paths() ([]string, bool)
	presentCall() presentation.CallView
	presentApproval(ctx context.Context) presentation.CallView
	presentResult(result presentation.ToolResult) presentation.ResultView
}

// Bind validates and decodes args for one call of t, once. When the
// arguments do not fit the tool (typed tools only: a raw tool takes any
// arguments) the error is an INVALID_ARGS *Error, and the Bound returned
// with it still stands for the call: it is not concurrency safe, has no
// paths (ok false) and no cards, and its Run and Revalidate fail with that
// error, so the call fails where its body would have run.
func (t *Tool) Bind(args Arguments) (Bound, error) {
	b, err := t.behavior.bind(t, args)
	if err != nil {
		return Bound{b: &failedBinding{t: t, args: args, err: err}}, err
	}
	return Bound{b: b}, nil
}

// Tool returns the tool the arguments are bound to, or nil for the zero
// Bound.
func (b Bound) Tool() *Tool {
	if b.b == nil {
		return nil
	}
	return b.b.tool()
}

// Arguments returns the bound arguments ({} for the zero Bound).
func (b Bound) Arguments() Arguments {
	if b.b == nil {
		return Arguments{}
	}
	return b.b.arguments()
}

// Run runs the tool's body with the bound arguments and builds the
// canonical success outcome of what it returned: snapshot, validate,
// render and, for a top-level call, presentation meta. A body error is
// returned as is; an argument violation is an INVALID_ARGS *Error, an
// output that breaks the contract an INVALID_TOOL_OUTPUT one; a panic
// anywhere becomes an error.
func (b Bound) Run(ctx context.Context, call *Call) (out Output, err error) {
	if b.b == nil {
		return Output{}, NotFoundError(call.Name())
	}
	err = guard(func() error {
		out, err = b.b.run(ctx, call)
		return err
	})
	return out, err
}

// Revalidate builds the canonical success outcome of a value that came
// from elsewhere (a wrapper's cached result, a post-execute replacement):
// it is checked against the tool's output contract and re-rendered with
// the bound arguments. value is canonical JSON text. Any failure is an
// INVALID_TOOL_OUTPUT *Error.
func (b Bound) Revalidate(value string, topLevel bool) (Output, error) {
	if b.b == nil {
		return Output{}, OutputError("", []string{"no tool is bound"})
	}
	v, err := jsonvalue.Parse(value)
	if err != nil {
		return Output{}, OutputError(b.b.tool().name, []string{"value is not lossless JSON"})
	}
	var out Output
	err = guard(func() (err error) {
		out, err = b.b.revalidate(v, topLevel)
		return err
	})
	return out, err
}

// ConcurrencySafe reports whether the call may run in parallel with
// others: true only when the tool's classifier says exactly true for the
// arguments. Arguments that do not fit and a panicking classifier mean
// false.
func (b Bound) ConcurrencySafe() (safe bool) {
	if b.b == nil {
		return false
	}
	_ = guard(func() error {
		safe = b.b.concurrencySafe()
		return nil
	})
	return safe
}

// Paths lists the paths the call touches, as the model wrote them. ok is
// false when the arguments do not fit the tool or the path function
// panics.
func (b Bound) Paths() (paths []string, ok bool) {
	if b.b == nil {
		return nil, false
	}
	err := guard(func() error {
		paths, ok = b.b.paths()
		return nil
	})
	return paths, ok && err == nil
}

// PresentCall returns the call's pending card, or nil when the tool has no
// call presenter, the arguments do not fit it, or it panics.
func (b Bound) PresentCall() (view presentation.CallView) {
	if b.b == nil {
		return nil
	}
	_ = guard(func() error {
		view = b.b.presentCall()
		return nil
	})
	return view
}

// PresentApproval returns the card the user approves when the call asks
// for approval: the tool's approval card (Spec.PresentApproval), computed
// now from the world as it is, or the pending card (PresentCall) when the
// tool has none, gives none, or panics. It returns nil only when there is
// no pending card either.
func (b Bound) PresentApproval(ctx context.Context) (view presentation.CallView) {
	if b.b == nil {
		return nil
	}
	_ = guard(func() error {
		view = b.b.presentApproval(ctx)
		return nil
	})
	if view == nil {
		return b.PresentCall()
	}
	return view
}

// PresentResult returns the call's completed card for result, or nil when
// the tool has no result presenter, the arguments do not fit it, or it
// panics.
func (b Bound) PresentResult(result presentation.ToolResult) (view presentation.ResultView) {
	if b.b == nil {
		return nil
	}
	_ = guard(func() error {
		view = b.b.presentResult(result)
		return nil
	})
	return view
}

// failedBinding stands for a call whose arguments do not fit its tool.
type failedBinding struct {
	t    *Tool
	args Arguments
	err  error
}

func (f *failedBinding) tool() *Tool          { return f.t }
func (f *failedBinding) arguments() Arguments { return f.args }

func (f *failedBinding) run(context.Context, *Call) (Output, error) { return Output{}, f.err }

func (f *failedBinding) revalidate(jsonvalue.Value, bool) (Output, error) {
	return Output{}, OutputError(f.t.name, []string{f.err.Error()})
}

func (*failedBinding) concurrencySafe() bool                                         { return false }
func (*failedBinding) paths() ([]string, bool)                                       { return nil, false }
func (*failedBinding) presentCall() presentation.CallView                            { return nil }
func (*failedBinding) presentApproval(context.Context) presentation.CallView         { return nil }
func (*failedBinding) presentResult(presentation.ToolResult) presentation.ResultView { return nil }
