package acp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	acpsdk "github.com/coder/acp-go-sdk"
	"go.lsp.dev/jsonrpc2"
)

// methodCancelRequest is the protocol-level cancellation notification
// (ACP schema 1.17.0 and later); the SDK has no constant for it.
const methodCancelRequest = "$/cancel_request"

// dispatcher routes incoming messages to an Agent. Its handle method is the
// connection's jsonrpc2.Handler.
type dispatcher struct {
	agent   Agent
	log     *slog.Logger
	routes  map[string]route
	replies *replies // every call taken owes an answer

	// stopping is set when Serve begins to shut down; every call read
	// from then on is refused.
	stopping atomic.Bool

	// initialized is set once initialize has been answered with a result;
	// until then every other request is refused.
	initialized atomic.Bool

	requests cancelSet[jsonrpc2.ID]      // in-flight calls, for $/cancel_request and duplicate ids
	turns    cancelSet[acpsdk.SessionId] // running prompts, for session/cancel
}

// agentCall calls the Agent with a request's decoded params.
type agentCall func(ctx context.Context) (any, error)

// route is how one method is served.
type route struct {
	// prepare decodes a request's params and returns the Agent call.
	prepare func(method string, params []byte) (agentCall, error)
	// turn, when set, reads the session whose turn the request runs
	// (session/prompt), on the read loop, so that a session/cancel later
	// on the wire finds it.
	turn func(params []byte) acpsdk.SessionId
	// inline runs the request on the read loop: every message after it on
	// the wire waits for it and sees its effects (initialize).
	inline bool
}

func newDispatcher(agent Agent, log *slog.Logger, replies *replies) *dispatcher {
	d := &dispatcher{
		agent:   agent,
		log:     log,
		replies: replies,
		routes: map[string]route{
			acpsdk.AgentMethodInitialize:   {prepare: typed(agent.Initialize, "protocolVersion"), inline: true},
			acpsdk.AgentMethodAuthenticate: {prepare: typed(agent.Authenticate, "methodId")},
			acpsdk.AgentMethodSessionNew:   {prepare: typed(agent.NewSession, "cwd", "mcpServers")},
			acpsdk.AgentMethodSessionPrompt: {
				prepare: func(method string, params []byte) (agentCall, error) {
					req, err := decodePrompt(method, params)
					if err != nil {
						return nil, err
					}
					return func(ctx context.Context) (any, error) { return agent.Prompt(ctx, req) }, nil
				},
				turn: promptSession,
			},
		},
	}
	addOptionalRoutes(d.routes, agent)
	return d
}

// methodSessionSetModel is the older, unstable model choice (see
// ModelSetter); the SDK no longer names it.
const methodSessionSetModel = "session/set_model"

// addOptionalRoutes routes the methods of the optional interfaces agent
// implements.
func addOptionalRoutes(routes map[string]route, agent Agent) {
	if a, ok := agent.(SessionLoader); ok {
		routes[acpsdk.AgentMethodSessionLoad] = route{prepare: typed(a.LoadSession, "sessionId", "cwd", "mcpServers")}
	}
	if a, ok := agent.(SessionLister); ok {
		routes[acpsdk.AgentMethodSessionList] = route{prepare: typed(a.ListSessions)}
	}
	if a, ok := agent.(SessionResumer); ok {
		routes[acpsdk.AgentMethodSessionResume] = route{prepare: typed(a.ResumeSession, "sessionId", "cwd")}
	}
	if a, ok := agent.(SessionCloser); ok {
		routes[acpsdk.AgentMethodSessionClose] = route{prepare: typed(a.CloseSession, "sessionId")}
	}
	if a, ok := agent.(SessionDeleter); ok {
		routes[acpsdk.AgentMethodSessionDelete] = route{prepare: typed(a.DeleteSession, "sessionId")}
	}
	if a, ok := agent.(ConfigOptionSetter); ok {
		routes[acpsdk.AgentMethodSessionSetConfigOption] = route{prepare: typed(a.SetSessionConfigOption, "sessionId", "configId", "value")}
	}
	if a, ok := agent.(ModeSetter); ok {
		routes[acpsdk.AgentMethodSessionSetMode] = route{prepare: typed(a.SetSessionMode, "sessionId", "modeId")}
	}
	if a, ok := agent.(ModelSetter); ok {
		routes[methodSessionSetModel] = route{prepare: typed(a.SetSessionModel, "sessionId", "modelId")}
	}
	if a, ok := agent.(Steerer); ok {
		routes[MethodSessionSteering] = route{prepare: typed(a.Steer, "sessionId", "prompt")}
	}
	if a, ok := agent.(LogoutHandler); ok {
		routes[acpsdk.AgentMethodLogout] = route{prepare: typed(a.Logout)}
	}
}

// typed makes the prepare step of a request whose params decode into Req.
func typed[Req, Resp any](fn func(context.Context, Req) (Resp, error), required ...string) func(string, []byte) (agentCall, error) {
	return func(method string, params []byte) (agentCall, error) {
		var req Req
		if err := decodeParams(method, params, &req, required...); err != nil {
			return nil, err
		}
		return func(ctx context.Context) (any, error) { return fn(ctx, req) }, nil
	}
}

// promptSession reads a session/prompt's sessionId without decoding the
// rest of its params; "" when it has none.
func promptSession(params []byte) acpsdk.SessionId {
	var probe struct {
		SessionID acpsdk.SessionId `json:"sessionId"`
	}
	_ = json.Unmarshal(params, &probe)
	return probe.SessionID
}

// handle is the connection's jsonrpc2.Handler. Notifications are handled
// inline on the read loop, in wire order, and never fail (a handler error
// on a notification would end a jsonrpc2 connection).
//
// Every context handed on derives from the connection's, never from
// reqCtx, jsonrpc2's per-request context: jsonrpc2 recycles that when
// handle returns unless the request was released with Async, and a
// context derived from a recycled one panics ("cannot create context from
// nil parent") in the goroutine context.WithCancel started for it. A
// call's own cancellation is registered below; a broken stream cancels the
// connection's context (see Serve).
//
// Every call owes an answer from here on (see replies). Once Serve is
// stopping, a call is refused -32603 at once.
//
// A call is checked on the read loop: its method must be known, the
// connection initialized (initialize excepted) and its id not in use by a
// call still in flight. Its cancellation is registered there too, so a
// session/cancel or $/cancel_request that follows it on the wire always
// finds it. Then the read loop is released (initialize excepted), and the
// params are decoded and the Agent called concurrently with later
// messages; decoding after the release keeps a large frame's memory to
// its params' copy and their decoded value.
//
// A panic anywhere in here, in the Agent or in encoding its result, is
// recovered, logged and answered -32603 (a panic reaching jsonrpc2 would
// end the connection).
func (d *dispatcher) handle(reqCtx context.Context, req *jsonrpc2.Request) (result any, err error) {
	ctx := jsonrpc2.DetachContext(reqCtx)
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
	d.replies.expect(req.ID())
	if d.stopping.Load() {
		d.log.Debug("acp: request refused while stopping", "method", method)
		return nil, InternalError("the agent is shutting down: %s was not run; start the agent again to send it", method)
	}
	r, ok := d.routes[method]
	if !ok {
		d.log.Debug("acp: unknown method", "method", method)
		return nil, MethodNotFound(method)
	}
	if method != acpsdk.AgentMethodInitialize && !d.initialized.Load() {
		d.log.Debug("acp: request before initialize", "method", method)
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest,
			"%s before initialize: the connection is not initialized; send initialize first and wait for its answer", method)
	}
	ctx, release, fresh := d.requests.trackNew(ctx, req.ID())
	if !fresh {
		d.log.Debug("acp: duplicate request id", "method", method, "id", req.ID())
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest,
			"request id %s is already in use by a request still in flight; give every request its own id", describeID(req.ID()))
	}
	defer release()
	ctx = context.WithValue(ctx, answerKey{}, answering{d.replies, req.ID()})
	if r.turn != nil {
		if session := r.turn(req.Params()); session != "" {
			var releaseTurn func()
			ctx, releaseTurn = d.turns.track(ctx, session)
			defer releaseTurn()
		}
	}
	if !r.inline {
		jsonrpc2.Async(reqCtx)
	}

	call, err := r.prepare(method, req.Params())
	if err != nil {
		d.log.Debug("acp: invalid params", "method", method, "error", err)
		return nil, err
	}
	result, err = d.run(ctx, method, call)
	if err != nil {
		return d.answerError(ctx, method, err)
	}
	if method == acpsdk.AgentMethodInitialize {
		d.initialized.Store(true)
	}
	return result, nil
}

// stop makes handle refuse every call from now on.
func (d *dispatcher) stop() { d.stopping.Store(true) }

// describeID writes a request id as it appeared on the wire.
func describeID(id jsonrpc2.ID) string {
	if s, ok := id.StringValue(); ok {
		return strconv.Quote(s)
	}
	if n, ok := id.Number(); ok {
		return strconv.FormatInt(n, 10)
	}
	return "null"
}

// run calls the Agent and encodes its result. Encoding here, not in
// jsonrpc2, keeps a failing or panicking MarshalJSON inside handle's
// recovery.
func (d *dispatcher) run(ctx context.Context, method string, fn agentCall) (any, error) {
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
