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

func (r *raw) bind(tool *Tool, args Arguments) (binding, error) {
	return &rawBinding{t: tool, r: r, name: r.spec.Name, args: args}, nil
}

func (r *raw) finalizer() Finalizer { return r.spec.Finalize }

func (r *raw) effect() Effect { return r.spec.Effect }

// rawBinding is a DefineRaw'd tool bound to one call's arguments, as they
// came.
type rawBinding struct {
	t    *Tool
	r    *raw
	name string
	args Arguments
}

func (b *rawBinding) tool() *Tool          { return b.t }
func (b *rawBinding) arguments() Arguments { return b.args }

func (b *rawBinding) run(ctx context.Context, call *Call) (Output, error) {
	body, err := b.r.spec.Execute(ctx, call, b.args)
	if err != nil {
		return Output{}, err
	}
	topLevel := call.TopLevel()
	if v, ok := body.(jsonvalue.Value); ok && v.Kind() != jsonvalue.KindInvalid {
		return b.revalidate(v, topLevel)
	}
	text, violations := snapshotValue(body)
	if violations != nil {
		return Output{}, OutputError(b.name, violations)
	}
	v, err := jsonvalue.Parse(text)
	if err != nil {
		return Output{}, OutputError(b.name, []string{"value is not lossless JSON"})
	}
	return b.revalidate(v, topLevel)
}

func (b *rawBinding) revalidate(value jsonvalue.Value, topLevel bool) (Output, error) {
	if violations := b.r.outputSchema.Validate(value, "value"); len(violations) > 0 {
		return Output{}, OutputError(b.name, violations)
	}
	return finishOutput(b.name, value.Canonical(), topLevel,
		renderFunc[Arguments, jsonvalue.Value](b.r.spec.Output.Render),
		metaFunc[Arguments, jsonvalue.Value](b.r.spec.Output.PresentationMeta),
		b.args, value)
}

func (b *rawBinding) concurrencySafe() bool {
	return b.r.spec.ConcurrencySafe != nil && b.r.spec.ConcurrencySafe(b.args)
}

func (b *rawBinding) paths() ([]string, bool) {
	if b.r.spec.Paths == nil {
		return nil, true
	}
	return b.r.spec.Paths(b.args), true
}

func (b *rawBinding) presentCall() presentation.CallView {
	if b.r.spec.PresentCall == nil {
		return nil
	}
	return b.r.spec.PresentCall(b.args)
}

// presentApproval is nil: a raw tool's approval shows its pending card.
func (b *rawBinding) presentApproval(context.Context) presentation.CallView { return nil }

func (b *rawBinding) presentResult(result presentation.ToolResult) presentation.ResultView {
	if b.r.spec.PresentResult == nil {
		return nil
	}
	return b.r.spec.PresentResult(b.args, result)
}
