package pipeline

import (
	"context"
	"errors"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Finish runs post-execute (unless the result skips it), applies the
// tool's finalizer once, notifies the observers and returns the result,
// which the caller owns. Calling Finish again returns a copy of it without
// running anything. An Execution never prepared finishes, without running
// anything, as ABORTED_BEFORE_DISPATCH. A call prepared but not yet
// dispatched is dispatched first. When Dispatch runs on another goroutine,
// call Finish only once Settled is closed; it then never waits for the
// body, even an abandoned one still running.
func (x *Execution) Finish() Result {
	switch x.stage {
	case stageDone:
		return x.result.Clone()
	case stageBound:
		x.settle(stageDone, AbortedBeforeDispatch())
		return x.result.Clone()
	case stageDispatch:
		x.Dispatch()
	}
	r := x.result
	if x.stage == stagePost {
		r = x.runPostExecute(r)
	}
	r = x.finish(r)
	x.settle(stageDone, r)
	return r
}

func (x *Execution) runPostExecute(r Result) Result {
	d, err := x.runPost(x.caller, r, 0)
	if err != nil {
		return ErrorResult(err)
	}
	r, err = x.apply(r, d)
	if err != nil {
		return ErrorResult(err)
	}
	if !r.IsError && x.caller.Err() != nil {
		return withContexts(aborted(x.invoked.Load()), r.AdditionalContexts)
	}
	return r
}

// runPost runs the post-execute chain from index i; each middleware gets
// its own copy of the result.
func (x *Execution) runPost(ctx context.Context, r Result, i int) (d PostDecision, err error) {
	for i < len(x.post) && !x.post[i].appliesTo(x.call) {
		i++
	}
	if i == len(x.post) {
		return Accept(), nil
	}
	m := x.post[i].fn
	next := func(ctx context.Context) (PostDecision, error) { return x.runPost(ctx, r, i+1) }
	err = protect(func() (err error) {
		d, err = m(ctx, x.call, r.Clone(), next)
		return err
	})
	return d, err
}

// apply applies a post-execute decision to r.
func (x *Execution) apply(r Result, d PostDecision) (Result, error) {
	switch d.Kind {
	case PostBlock:
		return blocked(d), nil
	case PostAccept:
	default:
		return Result{}, errUnknownPostDecision(d.Kind)
	}
	if d.Content != nil && d.HasValue {
		return Result{}, errReplaceBoth
	}
	if d.HasValue {
		if r.IsError {
			return Result{}, errReplaceFailed
		}
		replaced, err := x.replaceValue(d.Value)
		if err != nil {
			return ErrorResult(err), nil
		}
		replaced.AdditionalContexts = r.AdditionalContexts
		replaced.ConcludesTurn = r.ConcludesTurn
		r = replaced
	}
	if d.Content != nil {
		r.Content = presentation.CloneContent(d.Content)
	}
	if len(d.AdditionalContexts) > 0 {
		r.AdditionalContexts = append(registry.CloneContexts(r.AdditionalContexts), registry.CloneContexts(d.AdditionalContexts)...)
	}
	return r, nil
}

// replaceValue re-validates a replacement value through the live tool.
func (x *Execution) replaceValue(v any) (Result, error) {
	tool := x.p.reg.Get(x.call.Name(), x.call.Scope())
	if tool == nil {
		return Result{}, registry.NotFoundError(x.call.Name())
	}
	text, err := jsonvalue.Marshal(v)
	if err != nil {
		return Result{}, registry.OutputError(x.call.Name(), []string{"value is not lossless JSON"})
	}
	out, err := x.boundTo(tool).Revalidate(text, x.call.TopLevel())
	if err != nil {
		return Result{}, err
	}
	return Result{Content: out.Content, Value: out.Value, Meta: out.Meta}, nil
}

// blocked is the failure a post-execute block makes: the feedback as
// content, and only the block's own contexts.
func blocked(d PostDecision) Result {
	msg := presentation.JoinText(d.Content)
	if msg == "" {
		msg = "tool result blocked by post-execute policy"
	}
	r := failure(&ErrorInfo{Message: msg})
	if len(d.Content) > 0 {
		r.Content = presentation.CloneContent(d.Content)
	}
	r.AdditionalContexts = registry.CloneContexts(d.AdditionalContexts)
	return r
}

// finish checks the result can be carried as JSON, finalizes its content
// once and notifies the observers.
func (x *Execution) finish(r Result) Result {
	if err := checkSerializable(r); err != nil {
		r = ErrorResult(errUnserializable)
	}
	if x.finalize != nil {
		var content []presentation.ContentBlock
		var replace bool
		err := protect(func() error {
			content, replace = x.finalize(x.call, r.ToolResult())
			return nil
		})
		switch {
		case err != nil:
			r = failure(&ErrorInfo{Message: errorMessage(err)})
		case replace:
			r.Content = presentation.CloneContent(content)
			if checkSerializable(r) != nil {
				r = ErrorResult(errUnserializable)
			}
		}
	}
	for _, o := range x.observers {
		if o.appliesTo(x.call) {
			x.notify(o.fn, r)
		}
	}
	return r
}

func (x *Execution) notify(o Observer, r Result) {
	if err := protect(func() error {
		o(x.call, r.Clone())
		return nil
	}); err != nil {
		x.p.logger.Warn("tool result observer failed", "tool", x.call.Name(), "call", x.call.ID(), "err", err)
	}
}

// checkSerializable fails when content holds a block that cannot be
// carried as JSON.
func checkSerializable(r Result) error {
	for _, b := range r.Content {
		switch b := b.(type) {
		case nil:
			return errors.New("nil content block")
		case presentation.UnknownBlock:
			if _, err := jsonvalue.Parse(b.JSON); err != nil {
				return err
			}
		}
	}
	for _, c := range r.AdditionalContexts {
		if err := checkSerializable(Result{Content: c.Content}); err != nil {
			return err
		}
	}
	return nil
}
