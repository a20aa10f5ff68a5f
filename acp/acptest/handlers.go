package acptest

import (
	"context"
	"encoding/json"
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"
)

// HandlePermission answers session/request_permission with fn. fn runs on
// its own goroutine and may block (e.g. until the test cancels the turn).
func (c *Client) HandlePermission(fn func(acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse) {
	c.Handle(acpsdk.ClientMethodSessionRequestPermission, typedHandler(func(req acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
		return fn(req), nil
	}))
}

// HandleReadTextFile answers fs/read_text_file with fn; an *RPCError from
// fn is sent as that error (e.g. -32002 for a missing file).
func (c *Client) HandleReadTextFile(fn func(acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error)) {
	c.Handle(acpsdk.ClientMethodFsReadTextFile, typedHandler(fn))
}

// HandleWriteTextFile answers fs/write_text_file with fn.
func (c *Client) HandleWriteTextFile(fn func(acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error)) {
	c.Handle(acpsdk.ClientMethodFsWriteTextFile, typedHandler(fn))
}

// typedHandler decodes params into Req for fn; params that do not decode
// are answered -32602.
func typedHandler[Req, Resp any](fn func(Req) (Resp, error)) RequestHandler {
	return func(_ context.Context, params json.RawMessage) (any, error) {
		var req Req
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &RPCError{Code: -32602, Message: fmt.Sprintf("invalid params: %v", err)}
		}
		return fn(req)
	}
}
