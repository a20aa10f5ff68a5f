package registry

import (
	"context"
	"fmt"
	"time"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/schema"
)

// RawOutput is a raw tool's output contract: the value's JSON Schema (in
// the supported subset), the render projection and optional presentation
// meta.
type RawOutput struct {
	// Schema is the value's JSON Schema text; "" accepts any JSON value.
	Schema string
	// Render projects the value to model-facing content. Required.
	Render func(args Arguments, value jsonvalue.Value) ([]presentation.ContentBlock, error)
	// PresentationMeta, when set, projects the value to presentation meta.
	PresentationMeta func(args Arguments, value jsonvalue.Value) (any, error)
}

// RawSpec describes a tool whose parameters come as raw JSON Schema, such
// as a tool an MCP server offers. Its arguments are not validated: the body
// sees whatever arrives.
type RawSpec struct {
	Name        string
	Description string
	// Parameters is the parameter JSON Schema text, shown to the model as is.
	Parameters string
	Output     RawOutput
	// Execute is the body; its value must satisfy Output.Schema.
	Execute         func(ctx context.Context, call *Call, args Arguments) (any, error)
	Timeout         time.Duration
	Effect          Effect
	Paths           func(args Arguments) []string
	ConcurrencySafe func(args Arguments) bool
	PresentCall     func(args Arguments) presentation.CallView
	PresentResult   func(args Arguments, result presentation.ToolResult) presentation.ResultView
	Finalize        Finalizer
}

// DefineRaw builds a raw tool. It fails when the output contract is
// missing, the output schema is outside the supported subset, the timeout is
// negative, or Parameters is not lossless JSON.
func DefineRaw(spec RawSpec) (*Tool, error) {
	if spec.Output.Render == nil {
		return nil, fmt.Errorf("tool %q must declare output { schema, render, presentationMeta? }", spec.Name)
	}
	if spec.Execute == nil {
		return nil, fmt.Errorf("tool %q must declare execute", spec.Name)
	}
	outSchema := "{}"
	if spec.Output.Schema != "" {
		outSchema = spec.Output.Schema
	}
	compiled, err := schema.CompileText(outSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q output schema: %w", spec.Name, err)
	}
	if err := checkDefinition(spec.Name, spec.Timeout); err != nil {
		return nil, err
	}
	params := spec.Parameters
	if params == "" {
		params = `{"type":"object","properties":{}}`
	}
	canonical, err := jsonvalue.Canonicalize(params)
	if err != nil {
		return nil, fmt.Errorf("tool %q parameters must be lossless JSON before schema projection: %w", spec.Name, err)
	}
	return &Tool{
		name:        spec.Name,
		description: spec.Description,
		parameters:  canonical,
		timeout:     spec.Timeout,
		behavior:    &raw{spec: spec, outputSchema: compiled},
	}, nil
}

// raw is the behavior of a DefineRaw'd tool.
type raw struct {
	spec         RawSpec
	outputSchema *schema.Schema
}

func (r *raw) run(ctx context.Context, call *Call) (any, error) {
	return r.spec.Execute(ctx, call, call.Arguments())
}

func (r *raw) output(name string, args Arguments, body any, topLevel bool) (Output, error) {
	if v, ok := body.(jsonvalue.Value); ok && v.Kind() != jsonvalue.KindInvalid {
		return r.revalidate(name, args, v, topLevel)
	}
	text, violations := snapshotValue(body)
	if violations != nil {
		return Output{}, OutputError(name, violations)
	}
	v, err := jsonvalue.Parse(text)
	if err != nil {
		return Output{}, OutputError(name, []string{"value is not lossless JSON"})
	}
	return r.revalidate(name, args, v, topLevel)
}

func (r *raw) revalidate(name string, args Arguments, value jsonvalue.Value, topLevel bool) (Output, error) {
	if violations := r.outputSchema.Validate(value, "value"); len(violations) > 0 {
		return Output{}, OutputError(name, violations)
	}
	return finishOutput(name, value.Canonical(), topLevel,
		renderFunc[Arguments, jsonvalue.Value](r.spec.Output.Render),
		metaFunc[Arguments, jsonvalue.Value](r.spec.Output.PresentationMeta),
		args, value)
}

func (r *raw) concurrencySafe(args Arguments) bool {
	return r.spec.ConcurrencySafe != nil && r.spec.ConcurrencySafe(args)
}

func (r *raw) presentCall(args Arguments) presentation.CallView {
	if r.spec.PresentCall == nil {
		return nil
	}
	return r.spec.PresentCall(args)
}

func (r *raw) presentResult(args Arguments, result presentation.ToolResult) presentation.ResultView {
	if r.spec.PresentResult == nil {
		return nil
	}
	return r.spec.PresentResult(args, result)
}

func (r *raw) finalizer() Finalizer { return r.spec.Finalize }

func (r *raw) effect() Effect { return r.spec.Effect }

func (r *raw) paths(args Arguments) ([]string, bool) {
	if r.spec.Paths == nil {
		return nil, true
	}
	return r.spec.Paths(args), true
}
