package registry

import (
	"context"
	"encoding/json"
	"time"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
)

// Finalizer is a last-mile, total transform of a finished call's
// model-facing content. It runs exactly once per call, after every other
// stage; returning false keeps the content.
type Finalizer func(call *Call, result presentation.ToolResult) ([]presentation.ContentBlock, bool)

// Output is a successful call's canonical outcome: the value as canonical
// JSON, the model-facing content rendered from it, and the presentation meta
// (canonical JSON, "" when none).
type Output struct {
	Value   string
	Content []presentation.ContentBlock
	Meta    string
}

// Schema is what the model sees of a tool: exactly its name, description
// and parameter schema.
type Schema struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Tool is an immutable tool definition, built by Define or DefineRaw and
// registered in a Registry. Only Name, Description and Parameters ever reach
// the model; everything else is execution detail.
type Tool struct {
	name        string
	description string
	parameters  string
	timeout     time.Duration
	behavior    behavior
}

// behavior is what a typed or raw definition does with arguments and values.
type behavior interface {
	run(ctx context.Context, call *Call) (any, error)
	output(name string, args Arguments, body any, topLevel bool) (Output, error)
	revalidate(name string, args Arguments, value jsonvalue.Value, topLevel bool) (Output, error)
	concurrencySafe(args Arguments) bool
	presentCall(args Arguments) presentation.CallView
	presentResult(args Arguments, result presentation.ToolResult) presentation.ResultView
	finalizer() Finalizer
	effect() Effect
	paths(args Arguments) ([]string, bool)
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// Description returns the model-facing description.
func (t *Tool) Description() string { return t.description }

// Parameters returns the parameter JSON Schema as canonical JSON text.
func (t *Tool) Parameters() string { return t.parameters }

// Timeout returns the tool's cooperative time budget, or 0 for none.
func (t *Tool) Timeout() time.Duration { return t.timeout }

// Schema returns the model-facing projection of the tool.
func (t *Tool) Schema() Schema {
	return Schema{Name: t.name, Description: t.description, Parameters: json.RawMessage(t.parameters)}
}

// Run validates the call's arguments (typed tools) and runs the body. The
// returned value is opaque: pass it to Succeed. An argument violation is an
// INVALID_ARGS *Error; a panic in the body becomes an error.
func (t *Tool) Run(ctx context.Context, call *Call) (value any, err error) {
	err = guard(func() error {
		value, err = t.behavior.run(ctx, call)
		return err
	})
	return value, err
}

// Succeed builds the canonical success outcome of a body value returned by
// Run: snapshot, validate, render and, for top-level calls, presentation
// meta. Any failure is an INVALID_TOOL_OUTPUT *Error.
func (t *Tool) Succeed(args Arguments, body any, topLevel bool) (Output, error) {
	return t.behavior.output(t.name, args, body, topLevel)
}

// Revalidate builds the canonical success outcome of a value that came from
// elsewhere (a wrapper's cached result, a post-execute replacement): it is
// checked against this tool's output contract and re-rendered. value is
// canonical JSON text.
func (t *Tool) Revalidate(args Arguments, value string, topLevel bool) (Output, error) {
	v, err := jsonvalue.Parse(value)
	if err != nil {
		return Output{}, OutputError(t.name, []string{"value is not lossless JSON"})
	}
	return t.behavior.revalidate(t.name, args, v, topLevel)
}

// ConcurrencySafe reports whether the call may run in parallel with others:
// true only when the tool's classifier says exactly true for these
// arguments. Invalid arguments and a panicking classifier mean false.
func (t *Tool) ConcurrencySafe(args Arguments) (safe bool) {
	_ = guard(func() error {
		safe = t.behavior.concurrencySafe(args)
		return nil
	})
	return safe
}

// PresentCall returns the call's pending card, or nil when the tool has no
// call presenter, the arguments do not fit it, or it panics.
func (t *Tool) PresentCall(args Arguments) (view presentation.CallView) {
	_ = guard(func() error {
		view = t.behavior.presentCall(args)
		return nil
	})
	return view
}

// PresentResult returns the call's completed card, or nil when the tool has
// no result presenter, the arguments do not fit it, or it panics.
func (t *Tool) PresentResult(args Arguments, result presentation.ToolResult) (view presentation.ResultView) {
	_ = guard(func() error {
		view = t.behavior.presentResult(args, result)
		return nil
	})
	return view
}

// Effect says what the tool does, for permission policies.
func (t *Tool) Effect() Effect { return t.behavior.effect() }

// Paths lists the paths a call with args touches, as the model wrote them.
// ok is false when the arguments do not fit the tool (the call will fail
// validation) or the path function panics.
func (t *Tool) Paths(args Arguments) (paths []string, ok bool) {
	err := guard(func() error {
		paths, ok = t.behavior.paths(args)
		return nil
	})
	return paths, ok && err == nil
}

// Finalizer returns the tool's content finalizer, or nil.
func (t *Tool) Finalizer() Finalizer { return t.behavior.finalizer() }
