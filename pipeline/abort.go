package pipeline

import "github.com/dsh-acp/dsh-acp/registry"

// AbortError is the error of a call the caller cancelled: Code is
// registry.CodeAborted when the tool body had started, and
// registry.CodeAbortedBeforeDispatch when it had not.
type AbortError struct {
	Code string
}

// Error returns "tool call aborted" or "tool call aborted before dispatch".
func (e *AbortError) Error() string {
	if e.Code == registry.CodeAbortedBeforeDispatch {
		return "tool call aborted before dispatch"
	}
	return "tool call aborted"
}

// ErrorCode returns the abort code.
func (e *AbortError) ErrorCode() string { return e.Code }

// AbortedBeforeDispatch returns the result of a call cancelled before its
// body started; the loop also gives it to calls it never started.
func AbortedBeforeDispatch() Result {
	return ErrorResult(&AbortError{Code: registry.CodeAbortedBeforeDispatch})
}

func aborted(invoked bool) Result {
	if invoked {
		return ErrorResult(&AbortError{Code: registry.CodeAborted})
	}
	return AbortedBeforeDispatch()
}

// withContexts returns r carrying contexts.
func withContexts(r Result, contexts []registry.ContextMessage) Result {
	r.AdditionalContexts = contexts
	return r
}
