package acp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// ACP error codes beyond the JSON-RPC 2.0 standard ones that jsonrpc2
// defines (ParseError, InvalidRequest, MethodNotFound, InvalidParams,
// InternalError).
const (
	// CodeAuthRequired (-32000): authentication is required before the
	// operation can be performed. Zed shows its auth UI on it.
	CodeAuthRequired jsonrpc2.Code = -32000
	// CodeResourceNotFound (-32002): a session, file or other resource
	// named by the request does not exist.
	CodeResourceNotFound jsonrpc2.Code = -32002
	// CodeRequestCancelled (-32800): the request was cancelled by
	// $/cancel_request or by shutdown.
	CodeRequestCancelled jsonrpc2.Code = -32800
)

// InvalidParams returns a -32602 error whose message is the formatted text.
func InvalidParams(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, format, args...)
}

// InternalError returns a -32603 error whose message is the formatted text.
func InternalError(format string, args ...any) error {
	return jsonrpc2.Errorf(jsonrpc2.InternalError, format, args...)
}

// MethodNotFound returns the -32601 error for method.
func MethodNotFound(method string) error {
	return jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %q", method)
}

// ResourceNotFound returns a -32002 error whose message is the formatted text.
func ResourceNotFound(format string, args ...any) error {
	return jsonrpc2.Errorf(CodeResourceNotFound, format, args...)
}

// AuthRequired returns a -32000 error whose message is the formatted text.
func AuthRequired(format string, args ...any) error {
	return jsonrpc2.Errorf(CodeAuthRequired, format, args...)
}

// RequestCancelled returns the -32800 error that answers a cancelled request.
func RequestCancelled() error {
	return jsonrpc2.NewError(CodeRequestCancelled, "request cancelled")
}

// ErrorCode reports the JSON-RPC code carried by err (anywhere in its
// chain) and whether there was one. Errors returned by Conn's client calls
// carry the client's code this way.
func ErrorCode(err error) (jsonrpc2.Code, bool) {
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return rpcErr.Code, true
	}
	return 0, false
}

// toWireError turns whatever an Agent method returned into the error that
// goes on the wire: always a *jsonrpc2.Error with a non-zero code.
//
//   - a *jsonrpc2.Error anywhere in the chain keeps its code and data; a
//     wrapped one takes the full wrapped message;
//   - a context cancellation becomes -32800;
//   - anything else becomes -32603 with the error's message.
func toWireError(err error) error {
	if err == nil {
		return nil
	}
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		code := rpcErr.Code
		if code == 0 {
			code = jsonrpc2.InternalError
		}
		if rpcErr == err && code == rpcErr.Code {
			return rpcErr
		}
		return &jsonrpc2.Error{Code: code, Message: err.Error(), Data: rpcErr.Data}
	}
	if errors.Is(err, context.Canceled) {
		return RequestCancelled()
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// panicError is the -32603 answer to a request whose handler panicked.
func panicError(method string, v any) error {
	return jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("internal error: %s handler panicked: %v", method, v))
}
