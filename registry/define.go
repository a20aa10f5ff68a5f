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
//
// A call's arguments are validated and decoded once (Tool.Bind); Handler
// and every other hook of that call get the same decoded A, so they must
// only read it, never change what its slices, maps or pointers hold.
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

	// PresentApproval, when set, is the card the user approves when the
	// call asks for approval, shown in place of the pending card: unlike
	// PresentCall it may look at the world as it is at that moment (the
	// file an edit would change, through the tool's own file access), so
	// it takes the approval's context and must return when it ends. It
	// must change nothing. A nil return shows the pending card.
	PresentApproval func(ctx context.Context, args A) presentation.CallView

	// Finalize, when set, is the last-mile content transform.
	Finalize Finalizer

	// RefineSchema, when set, adjusts the inferred parameter schema before
	// it is compiled (enums, defaults, descriptions).
	RefineSchema func(s *jsonschema.Schema)
}

// Define builds a typed tool. The parameter schema is inferred from A,
// refined, narrowed to the supported subset and compiled; model arguments
// are validated against it when bound, before Handler runs, and violations
// become an INVALID_ARGS result naming each property and rule. Presenters and the
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
			name: spec.Name, spec: spec, params: compiled,
			render: render, meta: metaFunc[A, R](spec.PresentationMeta),
		},
	}, nil
}

// validator checks arguments against a tool's parameter schema.
type validator interface {
	Validate(v jsonvalue.Value, path string) []string
}

// typed is the behavior of a Define'd tool.
type typed[A, R any] struct {
	name   string
	spec   Spec[A, R]
	params validator
	render renderFunc[A, R]
	meta   metaFunc[A, R]
}

func (t *typed[A, R]) bind(tool *Tool, args Arguments) (binding, error) {
	b := &typedBinding[A, R]{owner: tool, t: t, raw: args}
	if err := args.InvalidJSON(); err != nil {
		return nil, ArgsError([]string{"arguments are not valid JSON: " + err.Error()})
	}
	if violations := t.params.Validate(args.Value(), ""); len(violations) > 0 {
		return nil, ArgsError(violations)
	}
	if err := args.Decode(&b.args); err != nil {
		return nil, ArgsError([]string{decodeViolation(err)})
	}
	return b, nil
}

func (t *typed[A, R]) finalizer() Finalizer { return t.spec.Finalize }

func (t *typed[A, R]) effect() Effect { return t.spec.Effect }

// typedBinding is a Define'd tool bound to one call's decoded arguments.
type typedBinding[A, R any] struct {
	owner *Tool
	t     *typed[A, R]
	raw   Arguments
	args  A
}

func (b *typedBinding[A, R]) tool() *Tool          { return b.owner }
func (b *typedBinding[A, R]) arguments() Arguments { return b.raw }

func (b *typedBinding[A, R]) run(ctx context.Context, call *Call) (Output, error) {
	v, err := b.t.spec.Handler(ctx, call, b.args)
	if err != nil {
		return Output{}, err
	}
	name := b.t.name
	text, violations := snapshotValue(v)
	if violations != nil {
		return Output{}, OutputError(name, violations)
	}
	return finishOutput(name, text, call.TopLevel(), b.t.render, b.t.meta, b.args, v)
}

func (b *typedBinding[A, R]) revalidate(value jsonvalue.Value, topLevel bool) (Output, error) {
	name := b.t.name
	var r R
	if err := decodeStrict(value.Canonical(), &r); err != nil {
		return Output{}, OutputError(name, []string{fmt.Sprintf("value does not fit %T: %v", r, err)})
	}
	text, violations := snapshotValue(r)
	if violations != nil {
		return Output{}, OutputError(name, violations)
	}
	return finishOutput(name, text, topLevel, b.t.render, b.t.meta, b.args, r)
}

func (b *typedBinding[A, R]) concurrencySafe() bool {
	return b.t.spec.ConcurrencySafe != nil && b.t.spec.ConcurrencySafe(b.args)
}

func (b *typedBinding[A, R]) paths() ([]string, bool) {
	if b.t.spec.Paths == nil {
		return nil, true
	}
	return b.t.spec.Paths(b.args), true
}

func (b *typedBinding[A, R]) presentCall() presentation.CallView {
	if b.t.spec.PresentCall == nil {
		return nil
	}
	return b.t.spec.PresentCall(b.args)
}

func (b *typedBinding[A, R]) presentApproval(ctx context.Context) presentation.CallView {
	if b.t.spec.PresentApproval == nil {
		return nil
	}
	return b.t.spec.PresentApproval(ctx, b.args)
}

func (b *typedBinding[A, R]) presentResult(result presentation.ToolResult) presentation.ResultView {
	if b.t.spec.PresentResult == nil {
		return nil
	}
	return b.t.spec.PresentResult(b.args, result)
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
