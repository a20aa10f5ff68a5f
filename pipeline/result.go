package pipeline

import (
	"fmt"

	"github.com/dsh-acp/dsh-acp/jsonvalue"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Result is a finished tool call's outcome. It is a value: every stage and
// observer gets its own copy, so none can change what another sees.
type Result struct {
	// Content is what the model reads.
	Content []presentation.ContentBlock
	// IsError says the call failed; Error then says how.
	IsError bool
	// Value is the tool's canonical value as canonical JSON text; "" when
	// the call failed.
	Value string
	// Meta is the tool's presentation meta as canonical JSON text; "" when
	// none.
	Meta string
	// Error describes a failure.
	Error *ErrorInfo
	// AdditionalContexts are handed to the model after the batch's results.
	AdditionalContexts []registry.ContextMessage
	// ConcludesTurn asks the loop to end the turn after this batch.
	ConcludesTurn bool

	// body marks a result ExecuteNext handed to a wrapper: it is the
	// body's own result, as the body made it. A result without it was
	// authored by a wrapper.
	body *Result
}

// ErrorInfo describes a failed call. Code is set only for coded errors
// (registry.CodedError); denials and plain errors carry just the message.
type ErrorInfo struct {
	Message string
	Code    string
}

// ToolResult returns the view a result presenter takes.
func (r Result) ToolResult() presentation.ToolResult {
	return presentation.ToolResult{Content: presentation.CloneContent(r.Content), IsError: r.IsError, Meta: r.Meta}
}

// Code returns the error code, or "".
func (r Result) Code() string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Code
}

// Clone returns a copy of r that shares nothing mutable with it.
func (r Result) Clone() Result {
	r.Content = presentation.CloneContent(r.Content)
	r.AdditionalContexts = registry.CloneContexts(r.AdditionalContexts)
	if r.Error != nil {
		e := *r.Error
		r.Error = &e
	}
	return r
}

// ErrorResult maps err to a failed result: content "Error: <message>", and
// the error's code when it is a registry.CodedError.
func ErrorResult(err error) Result {
	info := &ErrorInfo{Message: errorMessage(err)}
	if coded, ok := registry.AsCoded(err); ok {
		info.Code = coded.ErrorCode()
	}
	return failure(info)
}

// Success returns a wrapper-authored success holding value. The pipeline
// re-validates it against the tool's output contract and re-renders its
// content, so a wrapper cannot smuggle content past the contract.
func Success(value any) (Result, error) {
	text, err := jsonvalue.Marshal(value)
	if err != nil {
		return Result{}, err
	}
	return Result{Value: text}, nil
}

func failure(info *ErrorInfo) Result {
	return Result{
		Content: []presentation.ContentBlock{presentation.Text("Error: " + info.Message)},
		IsError: true,
		Error:   info,
	}
}

// denial is the result of a pre-execute deny or a guard: no code.
func denial(reason string) Result {
	return failure(&ErrorInfo{Message: reason})
}

// errorMessage returns err's message. A nil error, or one whose Error method
// panics, still yields a message that says what went wrong, so a failed call
// always reads as one.
func errorMessage(err error) (msg string) {
	if err == nil {
		return "the tool failed without an error"
	}
	defer func() {
		if v := recover(); v != nil {
			msg = fmt.Sprintf("the tool failed with a %T whose Error method panicked: %v", err, v)
		}
	}()
	return err.Error()
}
