package pipeline

import "github.com/dsh-acp/dsh-acp/registry"

// Input is one tool call to execute.
type Input struct {
	// CallID is the call's id, unique within the session.
	CallID string
	// RootCallID is the top-level call this one descends from; defaults to
	// CallID.
	RootCallID string
	// Name is the tool the model asked for.
	Name string
	// Arguments is the argument JSON text exactly as the model sent it: ""
	// means {}, and text that is not JSON is kept as a string.
	Arguments string
	// Scope is the agent the call runs for; nil for an agent-less call.
	Scope *registry.Scope
	// Parent is the dispatching call of a nested call; nil for a
	// model-direct call.
	Parent *registry.Call
	// OnProgress, when set, receives what the running tool reports (a
	// command's output as it arrives). It must be safe for concurrent use.
	OnProgress func(registry.Progress)
}
