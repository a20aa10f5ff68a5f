package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/schema"
)

// Spec describes a typed tool. A is the argument struct the model fills (its
// JSON Schema is inferred from the type, field tags and `jsonschema:"…"`
// descriptions); R is the canonical result value.
type Spec[A, R any] struct {
	Name        string
	Description string

	// Handler is the tool body. It must honour ctx and return only once its
	// own work has stopped. It runs only with arguments that passed
	// validation.
	Handler func(ctx context.Context, call *Call, args A) (R, error)

	// Render projects the value to model-facing content. When nil, a string
	// value is rendered as its text and any other value as its JSON.
	Render func(args A, value R) ([]presentation.ContentBlock, error)

	// PresentationMeta, when set, projects the value to meta for the
	// result presenter (top-level calls only). It must return lossless JSON.
	PresentationMeta func(args A, value R) (any, error)

	// Timeout is the cooperative time budget; 0 means none.
	Timeout time.Duration

	// Effect says what the tool does, for permission policies.
	Effect Effect

	// Paths, when set, lists the file-system paths a call touches, as the
	// model wrote them, for policies that check them against the
	// workspace.
	Paths func(args A) []string

	// ConcurrencySafe classifies a call; only true lets it run in parallel.
	ConcurrencySafe func(args A) bool

	// PresentCall and PresentResult are the pure card presenters; a nil
	// return means "no card".
	PresentCall   func(args A) presentation.CallView
	PresentResult func(args A, result presentation.ToolResult) presentation.ResultView

	// Finalize, when set, is the last-mile content transform.
	Finalize Finalizer

	// RefineSchema, when set, adjusts the inferred parameter schema before
	// it is compiled (enums, defaults, descriptions).
	RefineSchema func(s *jsonschema.Schema)
}

// Define builds a typed tool. The parameter schema is inferred from A,
// refined, narrowed to the supported subset and compiled; model arguments
// are validated against it before Handler runs, and violations become an
// INVALID_ARGS result naming each property and rule. Presenters and the
// classifier see only valid arguments: invalid ones give no card and
// exclusive execution. Define fails when the spec is unusable.
func Define[A, R any](spec Spec[A, R]) (*Tool, error) {
	if spec.Handler == nil {
		return nil, fmt.Errorf("define tool %q: Handler is required", spec.Name)
	}
	if err := checkDefinition(spec.Name, spec.Timeout); err != nil {
		return nil, err
	}
	params, err := inferParameters[A](spec.RefineSchema)
	if err != nil {
		return nil, fmt.Errorf("define tool %q: %w", spec.Name, err)
	}
	compiled, err := schema.Compile(params)
	if err != nil {
		return nil, fmt.Errorf("define tool %q: parameters: %w", spec.Name, err)
	}
	render := renderFunc[A, R](spec.Render)
	if render == nil {
		render = func(_ A, value R) ([]presentation.ContentBlock, error) { return defaultRender(value) }
	}
	return &Tool{
		name:        spec.Name,
		description: spec.Description,
		parameters:  params.Canonical(),
		timeout:     spec.Timeout,
		behavior: &typed[A, R]{
			spec: spec, params: compiled,
			render: render, meta: metaFunc[A, R](spec.PresentationMeta),
		},
	}, nil
}

// typed is the behavior of a Define'd tool.
type typed[A, R any] struct {
	spec   Spec[A, R]
	params *schema.Schema
	render renderFunc[A, R]
	meta   metaFunc[A, R]
}

// typedBody carries the decoded arguments from run to output, so they are
// decoded once per call.
type typedBody[A, R any] struct {
	args  A
	value R
}

func (t *typed[A, R]) decode(args Arguments) (A, error) {
	var a A
	if err := args.InvalidJSON(); err != nil {
		return a, ArgsError([]string{"arguments are not valid JSON: " + err.Error()})
	}
	if violations := t.params.Validate(args.Value(), ""); len(violations) > 0 {
		return a, ArgsError(violations)
	}
	if err := args.Decode(&a); err != nil {
		return a, ArgsError([]string{decodeViolation(err)})
	}
	return a, nil
}

func (t *typed[A, R]) run(ctx context.Context, call *Call) (any, error) {
	a, err := t.decode(call.Arguments())
	if err != nil {
		return nil, err
	}
	v, err := t.spec.Handler(ctx, call, a)
	if err != nil {
		return nil, err
	}
	return typedBody[A, R]{args: a, value: v}, nil
}

func (t *typed[A, R]) output(name string, args Arguments, body any, topLevel bool) (Output, error) {
	b, ok := body.(typedBody[A, R])
	if !ok {
		return Output{}, OutputError(name, []string{fmt.Sprintf("value has type %T, want %T", body, *new(R))})
	}
	text, violations := snapshotValue(b.value)
	if violations != nil {
		return Output{}, OutputError(name, violations)
	}
	return finishOutput(name, text, topLevel, t.render, t.meta, b.args, b.value)
}

func (t *typed[A, R]) revalidate(name string, args Arguments, value jsonvalue.Value, topLevel bool) (Output, error) {
	var r R
	if err := decodeStrict(value.Canonical(), &r); err != nil {
		return Output{}, OutputError(name, []string{fmt.Sprintf("value does not fit %T: %v", r, err)})
	}
	a, err := t.decode(args)
	if err != nil {
		return Output{}, OutputError(name, []string{err.Error()})
	}
	text, violations := snapshotValue(r)
	if violations != nil {
		return Output{}, OutputError(name, violations)
	}
	return finishOutput(name, text, topLevel, t.render, t.meta, a, r)
}

func (t *typed[A, R]) concurrencySafe(args Arguments) bool {
	if t.spec.ConcurrencySafe == nil {
		return false
	}
	a, err := t.decode(args)
	if err != nil {
		return false
	}
	return t.spec.ConcurrencySafe(a)
}

func (t *typed[A, R]) presentCall(args Arguments) presentation.CallView {
	if t.spec.PresentCall == nil {
		return nil
	}
	a, err := t.decode(args)
	if err != nil {
		return nil
	}
	return t.spec.PresentCall(a)
}

func (t *typed[A, R]) presentResult(args Arguments, result presentation.ToolResult) presentation.ResultView {
	if t.spec.PresentResult == nil {
		return nil
	}
	a, err := t.decode(args)
	if err != nil {
		return nil
	}
	return t.spec.PresentResult(a, result)
}

func (t *typed[A, R]) finalizer() Finalizer { return t.spec.Finalize }

func (t *typed[A, R]) effect() Effect { return t.spec.Effect }

func (t *typed[A, R]) paths(args Arguments) ([]string, bool) {
	if t.spec.Paths == nil {
		return nil, true
	}
	a, err := t.decode(args)
	if err != nil {
		return nil, false
	}
	return t.spec.Paths(a), true
}

// defaultRender shows a string value as its text and anything else as JSON.
func defaultRender(v any) ([]presentation.ContentBlock, error) {
	if s, ok := v.(string); ok {
		return []presentation.ContentBlock{presentation.Text(s)}, nil
	}
	text, err := jsonvalue.Marshal(v)
	if err != nil {
		return nil, err
	}
	return []presentation.ContentBlock{presentation.Text(text)}, nil
}
