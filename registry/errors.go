package registry

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes the tool core attaches to failed results. Callers route on the
// code, never on the message text.
const (
	CodeUnknownTool           = "UNKNOWN_TOOL"
	CodeInvalidArgs           = "INVALID_ARGS"
	CodeInvalidToolOutput     = "INVALID_TOOL_OUTPUT"
	CodeUnsupportedSchema     = "UNSUPPORTED_SCHEMA"
	CodeAborted               = "ABORTED"
	CodeAbortedBeforeDispatch = "ABORTED_BEFORE_DISPATCH"
	CodeToolTimeout           = "TOOL_TIMEOUT"
)

// CodedError is implemented by errors that carry a machine-readable code. A
// tool body returning (or wrapping) one gets the code on its failed result;
// any other error contributes only its message.
type CodedError interface {
	error
	ErrorCode() string
}

// AsCoded reports the first CodedError in err's chain.
func AsCoded(err error) (CodedError, bool) {
	var coded CodedError
	if errors.As(err, &coded) {
		return coded, true
	}
	return nil, false
}

// Error is the general coded error. Tool bodies return one to give a failure
// a code, e.g. &registry.Error{Code: "FS_NOT_FOUND", Message: "no such file"}.
type Error struct {
	// Code is the machine-readable code callers route on.
	Code string
	// Message is the human-readable text.
	Message string
	// Violations lists each problem, for errors that gather several.
	Violations []string
	// Cause is the underlying error, if any.
	Cause error
}

// NewError returns an *Error with the given code and message.
func NewError(code, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// ErrorCode returns the code.
func (e *Error) ErrorCode() string { return e.Code }

// ArgsError returns the INVALID_ARGS error for violations; its message is
// "invalid arguments: " followed by the violations joined by "; ".
func ArgsError(violations []string) *Error {
	return &Error{
		Code:       CodeInvalidArgs,
		Message:    "invalid arguments: " + strings.Join(violations, "; "),
		Violations: violations,
	}
}

// OutputError returns the INVALID_TOOL_OUTPUT error of tool name.
func OutputError(name string, violations []string) *Error {
	return &Error{
		Code:       CodeInvalidToolOutput,
		Message:    fmt.Sprintf("tool %q returned invalid output: %s", name, strings.Join(violations, "; ")),
		Violations: violations,
	}
}

// NotFoundError returns the UNKNOWN_TOOL error for name.
func NotFoundError(name string) *Error {
	return &Error{
		Code:    CodeUnknownTool,
		Message: fmt.Sprintf("unknown tool %q", name),
	}
}
