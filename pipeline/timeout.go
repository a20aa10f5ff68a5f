package pipeline

import (
	"context"
	"fmt"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

// TimeoutError is the failure of a call that outran its tool's Timeout.
type TimeoutError struct {
	Timeout time.Duration
}

// Error returns "tool call timed out after <ms>ms".
func (e *TimeoutError) Error() string {
	return fmt.Sprintf("tool call timed out after %dms", e.Timeout.Milliseconds())
}

// ErrorCode returns registry.CodeToolTimeout.
func (e *TimeoutError) ErrorCode() string { return registry.CodeToolTimeout }

// TimeoutPolicy returns the execute wrapper that enforces each tool's
// Timeout: the body runs under a deadline, and when the deadline is what
// ended it, the call fails with TOOL_TIMEOUT whatever the body returned. A
// caller cancellation that came first keeps its ABORTED result. Tools
// without a timeout run untouched.
func TimeoutPolicy(reg *registry.Registry) ExecuteWrapper {
	return func(ctx context.Context, call *registry.Call, next ExecuteNext) (Result, error) {
		tool := reg.Get(call.Name(), call.Scope())
		if tool == nil || tool.Timeout() <= 0 {
			return next(ctx)
		}
		reason := &TimeoutError{Timeout: tool.Timeout()}
		deadline, cancel := context.WithTimeoutCause(ctx, reason.Timeout, reason)
		defer cancel()
		r, err := next(deadline)
		if context.Cause(deadline) == error(reason) {
			return ErrorResult(reason), nil
		}
		return r, err
	}
}
