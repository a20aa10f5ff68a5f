package llm

import (
	"context"
	"encoding/json"
)

// Provider streams one model step.
//
// Stream returns an error only when the request or the provider's
// configuration is unusable before anything is sent (for example a missing
// API key, [*AuthError], or a tool whose parameters are not valid JSON).
// Everything that happens on the wire — including authentication failures
// reported by the server — surfaces from [Stream.Err] after [Stream.Next]
// returns false.
//
// Implementations are safe for concurrent use: several sessions may stream
// from one Provider at the same time.
type Provider interface {
	Stream(ctx context.Context, req Request) (*Stream, error)
}

// Request is everything a model sees for one step.
type Request struct {
	// System is the system prompt; empty means none is sent.
	System string
	// Messages is the conversation so far, oldest first.
	Messages []Message
	// Tools are the tool schemas the model may call, in the order offered.
	Tools []Tool
	// MaxTokens caps the completion length; zero leaves it to the server.
	MaxTokens int
}

// Tool is a model-facing tool schema.
type Tool struct {
	// Name is the function name the model calls.
	Name string
	// Description tells the model what the tool does; empty is omitted.
	Description string
	// Parameters is the JSON Schema of the arguments, sent verbatim (key
	// order preserved). Empty means the tool takes no parameters.
	Parameters json.RawMessage
}
