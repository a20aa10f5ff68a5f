package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// ErrInvalidAnswer is wrapped by the error a client call returns when the
// client answered with a result that does not fit the method's schema
// (garbage, a missing field, an unknown permission outcome).
var ErrInvalidAnswer = errors.New("acp: the client's answer is invalid")

// Conn is the client as the agent sees it: the typed calls an agent makes
// to the editor. It is safe for concurrent use. Calls made after the
// connection ended fail with an error wrapping jsonrpc2.ErrClientClosing;
// once Serve's shutdown grace ran out (see Options.ShutdownGrace), a call
// blocked on a client that stopped reading fails too, and so does every
// later one.
//
// An error the client answers with is returned wrapped; ErrorCode reads its
// code (e.g. -32002 from fs/read_text_file for a path outside the project).
// A call whose ctx is cancelled returns ctx.Err() at once; its late answer
// is dropped.
type Conn struct {
	rpc jsonrpc2.Conn
}

// SessionUpdate sends a session/update notification for the session.
// The update is encoded in one pass, losslessly (raw input and output go
// verbatim), fields in the order its type declares them; Zed's terminal
// convention is carried in the typed _meta of ToolCall and
// ToolCallUpdate. A ChildUpdate goes out on its child's session id
// (Route). A nil update, or a nil union value inside it, is an error
// wrapping ErrMissingVariant and nothing is sent.
func (c *Conn) SessionUpdate(ctx context.Context, sessionID string, u Update) error {
	sessionID, u = Route(sessionID, u)
	raw, err := SessionNotification{SessionID: sessionID, Update: u}.MarshalJSON()
	if err != nil {
		return fmt.Errorf("acp: %s: %w", ClientMethodSessionUpdate, err)
	}
	return c.Notify(ctx, ClientMethodSessionUpdate, json.RawMessage(raw))
}

// RequestPermission asks the client to approve a tool call and returns its
// answer, which has exactly one outcome: Selected (with an OptionId) or
// Cancelled.
func (c *Conn) RequestPermission(ctx context.Context, req RequestPermissionRequest) (RequestPermissionResponse, error) {
	const method = ClientMethodSessionRequestPermission
	var resp RequestPermissionResponse
	raw, err := req.MarshalJSON()
	if err != nil {
		return resp, fmt.Errorf("acp: %s: %w", method, err)
	}
	answer, err := c.call(ctx, method, json.RawMessage(raw))
	if err != nil {
		return resp, err
	}
	if err := decodeAnswer(method, answer, &resp, "outcome"); err != nil {
		return resp, err
	}
	if err := checkPermissionOutcome(answer); err != nil {
		return RequestPermissionResponse{}, fmt.Errorf("%w: %s: %v", ErrInvalidAnswer, method, err)
	}
	return resp, nil
}

// ReadTextFile asks the client for a text file's content, unsaved editor
// changes included. Only valid when the client advertised
// fs.readTextFile.
func (c *Conn) ReadTextFile(ctx context.Context, req ReadTextFileRequest) (ReadTextFileResponse, error) {
	const method = ClientMethodFsReadTextFile
	var resp ReadTextFileResponse
	answer, err := c.call(ctx, method, req)
	if err != nil {
		return resp, err
	}
	return resp, decodeAnswer(method, answer, &resp, "content")
}

// WriteTextFile asks the client to write a text file (creating it when
// missing). Only valid when the client advertised fs.writeTextFile.
func (c *Conn) WriteTextFile(ctx context.Context, req WriteTextFileRequest) (WriteTextFileResponse, error) {
	const method = ClientMethodFsWriteTextFile
	var resp WriteTextFileResponse
	answer, err := c.call(ctx, method, req)
	if err != nil {
		return resp, err
	}
	return resp, decodeAnswer(method, answer, &resp)
}

// Notify sends any notification: params is encoded with encoding/json (a
// json.RawMessage goes verbatim). It is the escape hatch for notifications
// the package's vocabulary has no type for yet.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if err := c.rpc.Notify(ctx, method, params); err != nil {
		return fmt.Errorf("acp: %s: %w", method, err)
	}
	return nil
}

// call sends a request and returns the raw result.
func (c *Conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var answer json.RawMessage
	id, err := c.rpc.Call(ctx, method, params, &answer)
	if err != nil {
		if ctx.Err() != nil {
			c.withdraw(ctx, id)
		}
		return nil, fmt.Errorf("acp: %s: %w", method, withDetails(err))
	}
	return answer, nil
}

// withdrawTimeout bounds sending a withdrawal to a client that stopped
// reading. It is a guard, not a pace: a client that reads, however loaded
// its machine, gets the withdrawal.
const withdrawTimeout = 5 * time.Second

// withdraw tells the client that the agent no longer waits for the answer
// to request id ($/cancel_request), e.g. a permission prompt whose turn was
// cancelled, so the editor can take the prompt down.
func (c *Conn) withdraw(ctx context.Context, id jsonrpc2.ID) {
	n, ok := id.Number()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), withdrawTimeout)
	defer cancel()
	_ = c.rpc.Notify(ctx, methodCancelRequest, map[string]int64{"requestId": n})
}

// decodeAnswer decodes a client's result, wrapping ErrInvalidAnswer when
// it does not fit.
func decodeAnswer(method string, answer []byte, v any, required ...string) error {
	if err := decodeObject(answer, v, required...); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalidAnswer, method, err)
	}
	return nil
}

// checkPermissionOutcome checks the outcome discriminator strictly: the
// SDK's decoder takes any unknown outcome for "cancelled".
func checkPermissionOutcome(answer []byte) error {
	var probe struct {
		Outcome struct {
			Outcome  string  `json:"outcome"`
			OptionID *string `json:"optionId"`
		} `json:"outcome"`
	}
	if err := json.Unmarshal(answer, &probe); err != nil {
		return errors.New(describeDecodeError(err))
	}
	switch probe.Outcome.Outcome {
	case "cancelled":
		return nil
	case "selected":
		if probe.Outcome.OptionID == nil || *probe.Outcome.OptionID == "" {
			return errors.New(`outcome "selected" without an optionId`)
		}
		return nil
	}
	return fmt.Errorf(`outcome.outcome must be "selected" or "cancelled", got %q`, probe.Outcome.Outcome)
}
