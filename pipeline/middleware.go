package pipeline

import (
	"context"

	"github.com/dsh-acp/dsh-acp/registry"
)

// PreExecute is a pre-execute middleware. It decides about call, usually by
// calling next to hear the rest of the chain (next answers Allow at the
// end). Returning an error, or panicking, fails the call without running
// post-execute.
type PreExecute func(ctx context.Context, call *registry.Call, next PreNext) (Decision, error)

// PreNext runs the rest of the pre-execute chain.
type PreNext func(ctx context.Context) (Decision, error)

// ExecuteWrapper wraps the dispatch of a call (the tool body and what the
// wrappers inside it add). It may pass next a replaced context — the
// pipeline always fuses the caller's cancellation back in before the body
// runs — and may return its own result without calling next.
//
// A result the wrapper returns is one of two kinds, told apart by a
// mark, not by its fields. The body's result, as next hands it on,
// carries the body's mark: returned, it stands for the body's outcome
// exactly as the body made it — content, value, meta and error — plus the
// contexts the wrappers attached to it; changing its other fields, even
// in place, changes nothing. Any other result is a wrapper's own
// (Success, ErrorResult): a success is re-validated against the tool's
// output contract and re-rendered from its value, a failure keeps only a
// failure's fields.
type ExecuteWrapper func(ctx context.Context, call *registry.Call, next ExecuteNext) (Result, error)

// ExecuteNext runs the rest of the dispatch with ctx. The result it
// returns is the caller's own copy; it carries the body's mark unless an
// inner wrapper returned a result of its own.
type ExecuteNext func(ctx context.Context) (Result, error)

// PostExecute is a post-execute middleware. It sees its own copy of the
// result and decides to accept (possibly replacing content or value) or
// block it; next answers Accept at the end.
type PostExecute func(ctx context.Context, call *registry.Call, result Result, next PostNext) (PostDecision, error)

// PostNext runs the rest of the post-execute chain.
type PostNext func(ctx context.Context) (PostDecision, error)

// Observer sees every finished call with its own copy of the result. It
// cannot change the result; a panic in it is logged and contained.
type Observer func(call *registry.Call, result Result)

// scoped is a middleware registered for one scope (nil: every call).
type scoped[F any] struct {
	scope *registry.Scope
	fn    F
	// derives says the wrapper passes next only contexts derived from the
	// one it was given, so they carry the caller's cancellation already;
	// only the pipeline's own TimeoutPolicy is marked so.
	derives bool
}

// appliesTo reports whether the middleware sees call: a global one sees
// every call, a scoped one only the calls made for exactly its scope.
func (s *scoped[F]) appliesTo(call *registry.Call) bool {
	return s.scope == nil || s.scope == call.Scope()
}
