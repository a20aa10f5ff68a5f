package registry

import (
	"encoding/json"
	"time"

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

// behavior is what a typed or raw definition does: it binds one call's
// arguments and holds what belongs to the tool, not the call.
type behavior interface {
	bind(tool *Tool, args Arguments) (binding, error)
	finalizer() Finalizer
	effect() Effect
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

// Effect says what the tool does, for permission policies.
func (t *Tool) Effect() Effect { return t.behavior.effect() }

// Paths lists the paths a call with args touches, as the model wrote them;
// it is Bind(args) followed by Bound.Paths, for callers that have only the
// arguments. ok is false when the arguments do not fit the tool or the path
// function panics. A caller in the pipeline has the call's Bound already
// (Call.Bound) and should ask it instead of binding again.
func (t *Tool) Paths(args Arguments) (paths []string, ok bool) {
	b, err := t.Bind(args)
	if err != nil {
		return nil, false
	}
	return b.Paths()
}

// Finalizer returns the tool's content finalizer, or nil.
func (t *Tool) Finalizer() Finalizer { return t.behavior.finalizer() }
