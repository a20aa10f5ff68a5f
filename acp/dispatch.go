package acp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"
)

// methodCancelRequest is the protocol-level cancellation notification
// (ACP schema 1.17.0 and later); the SDK has no constant for it.
const methodCancelRequest = "$/cancel_request"

// dispatcher routes incoming messages to an Agent. Its handle method is the
// connection's jsonrpc2.Handler.
type dispatcher struct {
	agent  Agent
	log    *slog.Logger
	routes map[string]route

	requests cancelSet[jsonrpc2.ID]      // in-flight calls, for $/cancel_request
	turns    cancelSet[acpsdk.SessionId] // running prompts, for session/cancel
}

// prepared is a request whose params decoded: run calls the Agent.
type prepared struct {
	session acpsdk.SessionId // non-empty for session/prompt: the turn session/cancel cancels
	run     func(ctx context.Context) (any, error)
}

// route decodes a request's params and prepares the Agent call.
type route func(method string, params []byte) (prepared, error)

func newDispatcher(agent Agent, log *slog.Logger) *dispatcher {
	return &dispatcher{
		agent: agent,
		log:   log,
		routes: map[string]route{
			acpsdk.AgentMethodInitialize:   typed(agent.Initialize, "protocolVersion"),
			acpsdk.AgentMethodAuthenticate: typed(agent.Authenticate, "methodId"),
			acpsdk.AgentMethodSessionNew:   typed(agent.NewSession, "cwd", "mcpServers"),
			acpsdk.AgentMethodSessionPrompt: func(method string, params []byte) (prepared, error) {
				var req acpsdk.PromptRequest
				if err := decodeParams(method, params, &req, "sessionId", "prompt"); err != nil {
					return prepared{}, err
				}
				return prepared{
					session: req.SessionId,
					run:     func(ctx context.Context) (any, error) { return agent.Prompt(ctx, req) },
				}, nil
			},
		},
	}
}

// typed makes the route of a request whose params decode into Req.
func typed[Req, Resp any](fn func(context.Context, Req) (Resp, error), required ...string) route {
	return func(method string, params []byte) (prepared, error) {
		var req Req
		if err := decodeParams(method, params, &req, required...); err != nil {
			return prepared{}, err
		}
		return prepared{run: func(ctx context.Context) (any, error) { return fn(ctx, req) }}, nil
	}
}

// handle is the connection's jsonrpc2.Handler. Notifications are handled
// inline on the read loop, in wire order, and never fail (a handler error
// on a notification would end a jsonrpc2 connection). A call's params are
// decoded and its cancellation registered inline, so a session/cancel or
// $/cancel_request that follows it on the wire always finds it; then the
// read loop is released and the Agent runs concurrently.
//
// A panic anywhere in here, in the Agent or in encoding its result, is
// recovered, logged and answered -32603 (a panic reaching jsonrpc2 would
// end the connection).
func (d *dispatcher) handle(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
	method := strings.Clone(req.Method()) // req's strings are borrowed from the frame buffer
	isCall := req.IsCall()
	defer func() {
		if v := recover(); v != nil {
			d.log.Error("acp: handler panicked", "method", method, "panic", v, "stack", string(debug.Stack()))
			result, err = nil, nil
			if isCall {
				err = panicError(method, v)
			}
		}
	}()
	if !isCall {
		d.notification(ctx, req)
		return nil, nil
	}
	r, ok := d.routes[method]
	if !ok {
		d.log.Debug("acp: unknown method", "method", method)
		return nil, MethodNotFound(method)
	}
	p, err := r(method, req.Params())
	if err != nil {
		d.log.Debug("acp: invalid params", "method", method, "error", err)
		return nil, err
	}
	ctx, release := d.requests.track(ctx, req.ID())
	defer release()
	if p.session != "" {
		var releaseTurn func()
		ctx, releaseTurn = d.turns.track(ctx, p.session)
		defer releaseTurn()
	}
	jsonrpc2.Async(ctx)

	result, err = d.run(ctx, method, p.run)
	if err == nil {
		return result, nil
	}
	return d.answerError(ctx, method, err)
}

// run calls the Agent and encodes its result. Encoding here, not in
// jsonrpc2, keeps a failing or panicking MarshalJSON inside handle's
// recovery.
func (d *dispatcher) run(ctx context.Context, method string, fn func(context.Context) (any, error)) (any, error) {
	res, err := fn(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := marshalJSON(res)
	if err != nil {
		return nil, InternalError("internal error: encoding the %s result: %v", method, err)
	}
	return json.RawMessage(raw), nil
}

// answerError maps an Agent error to the answer the client gets.
func (d *dispatcher) answerError(ctx context.Context, method string, err error) (any, error) {
	cause := context.Cause(ctx)
	_, coded := ErrorCode(err)
	switch {
	case method == acpsdk.AgentMethodSessionPrompt && errors.Is(cause, ErrSessionCancelled) &&
		(errors.Is(err, context.Canceled) || errors.Is(err, ErrSessionCancelled)):
		// The protocol forbids answering a cancelled turn with an error.
		d.log.Debug("acp: cancelled prompt returned an error; answering stopReason cancelled", "error", err)
		raw, merr := marshalJSON(acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled})
		if merr != nil {
			return nil, InternalError("internal error: %v", merr)
		}
		return json.RawMessage(raw), nil
	case errors.Is(cause, ErrRequestCancelled) && !coded:
		return nil, RequestCancelled()
	}
	wire := toWireError(err)
	if code, _ := ErrorCode(wire); code == jsonrpc2.InternalError {
		d.log.Warn("acp: request failed", "method", method, "error", err)
	}
	return nil, wire
}

// notification handles a client notification inline. It never fails: a
// bad or unknown notification is logged and dropped (handle recovers a
// panicking Cancel).
func (d *dispatcher) notification(ctx context.Context, req *jsonrpc2.Request) {
	switch method := req.Method(); method {
	case acpsdk.AgentMethodSessionCancel:
		var n acpsdk.CancelNotification
		if err := decodeParams(method, req.Params(), &n, "sessionId"); err != nil {
			d.log.Warn("acp: ignoring a bad notification", "method", method, "error", err)
			return
		}
		defer d.turns.cancel(n.SessionId, ErrSessionCancelled)
		d.agent.Cancel(ctx, n)
	case methodCancelRequest:
		var n struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if err := decodeParams(method, req.Params(), &n, "requestId"); err != nil {
			d.log.Warn("acp: ignoring a bad notification", "method", method, "error", err)
			return
		}
		id, ok := parseID(n.RequestID)
		if !ok {
			d.log.Warn("acp: ignoring $/cancel_request with an unusable requestId", "requestId", string(n.RequestID))
			return
		}
		if d.requests.cancel(id, ErrRequestCancelled) == 0 {
			d.log.Debug("acp: $/cancel_request for a request not in flight", "requestId", string(n.RequestID))
		}
	default:
		d.log.Debug("acp: ignoring unknown notification", "method", method)
	}
}

// parseID reads a JSON-RPC id (a string or an integer).
func parseID(raw json.RawMessage) (jsonrpc2.ID, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return jsonrpc2.NewStringID(s), true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return jsonrpc2.ID{}, false
	}
	return jsonrpc2.NewNumberID(n), true
}
