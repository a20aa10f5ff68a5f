package acp

import (
	"context"
)

// Agent is the agent side of ACP: the methods a client calls. Serve
// decodes each request's params into the SDK type (answering -32602 when
// they do not fit), calls the method, and encodes its result.
//
// Requests other than initialize are refused until an Initialize has
// succeeded. Initialize runs on the connection's read loop, so it must
// return promptly and must not call the client. The other requests run
// concurrently, each on its own goroutine, started in wire order; a
// method may call the client back through its Conn (permission, fs)
// while later requests and notifications are still being served. The
// ctx of a request is cancelled when the client sends $/cancel_request
// for it (cause ErrRequestCancelled), when the client disconnects (cause
// ErrDisconnected), and, for Prompt, when the client sends session/cancel
// for its session (cause ErrSessionCancelled), and when Serve's ctx is
// cancelled (its cause); context.Cause tells them apart. A method that
// returns once its ctx is cancelled by Serve's shutdown still has its
// answer written (see Serve).
//
// An error returned by a method goes on the wire as is when it carries a
// JSON-RPC code (see InvalidParams, ResourceNotFound, …), as -32800 when it
// is a context cancellation, and as -32603 with its message otherwise. A
// panic is recovered, logged and answered -32603; the connection keeps
// serving.
type Agent interface {
	// Initialize answers "initialize".
	Initialize(ctx context.Context, req InitializeRequest) (InitializeResponse, error)
	// Authenticate answers "authenticate".
	Authenticate(ctx context.Context, req AuthenticateRequest) (AuthenticateResponse, error)
	// NewSession answers "session/new".
	NewSession(ctx context.Context, req NewSessionRequest) (NewSessionResponse, error)
	// Prompt answers "session/prompt". Its ctx is cancelled with cause
	// ErrSessionCancelled when session/cancel arrives for req.SessionId;
	// if Prompt then returns that cancellation as an error, the client is
	// answered {"stopReason":"cancelled"} rather than an error.
	Prompt(ctx context.Context, req PromptRequest) (PromptResponse, error)
	// Cancel receives the "session/cancel" notification. It runs on the
	// connection's read loop, in wire order with every other message, so
	// it must return promptly and must not wait for the client; the
	// session's running Prompt contexts are cancelled right after it
	// returns. Its ctx is the connection's (cancelled when Serve stops),
	// not one per notification, so it may be kept after Cancel returns.
	Cancel(ctx context.Context, n CancelNotification)
}

// The optional parts of an Agent: Serve routes a method to the Agent only
// when it implements the matching interface, and answers -32601 (method
// not found) otherwise. Advertise each in the initialize answer only when
// it is implemented and works.
type (
	// SessionLoader answers "session/load": it sends the whole stored
	// conversation as session/update notifications, then answers.
	SessionLoader interface {
		LoadSession(ctx context.Context, req LoadSessionRequest) (SessionSetup, error)
	}
	// SessionLister answers "session/list".
	SessionLister interface {
		ListSessions(ctx context.Context, req ListSessionsRequest) (ListSessionsResponse, error)
	}
	// SessionResumer answers "session/resume": the session is live again,
	// without replay.
	SessionResumer interface {
		ResumeSession(ctx context.Context, req ResumeSessionRequest) (SessionSetup, error)
	}
	// SessionCloser answers "session/close".
	SessionCloser interface {
		CloseSession(ctx context.Context, req CloseSessionRequest) (CloseSessionResponse, error)
	}
	// SessionDeleter answers "session/delete".
	SessionDeleter interface {
		DeleteSession(ctx context.Context, req DeleteSessionRequest) (DeleteSessionResponse, error)
	}
	// ConfigOptionSetter answers "session/set_config_option" with the
	// session's whole option list.
	ConfigOptionSetter interface {
		SetSessionConfigOption(ctx context.Context, req SetSessionConfigOptionRequest) (ConfigOptionsResponse, error)
	}
	// ModeSetter answers "session/set_mode".
	ModeSetter interface {
		SetSessionMode(ctx context.Context, req SetSessionModeRequest) (SetSessionModeResponse, error)
	}
	// ModelSetter answers "session/set_model", the older, unstable form of
	// the model config option that clients reading the "models" member of
	// a session setup use (SessionSetup.Models).
	ModelSetter interface {
		SetSessionModel(ctx context.Context, req SetSessionModelRequest) (SetSessionModelResponse, error)
	}
	// Steerer answers "_session/steering" (MethodSessionSteering): what
	// the user sent while a turn runs.
	Steerer interface {
		Steer(ctx context.Context, req SteeringRequest) (SteeringResponse, error)
	}
	// LogoutHandler answers "logout".
	LogoutHandler interface {
		Logout(ctx context.Context, req LogoutRequest) (LogoutResponse, error)
	}
)

// DeleteSessionRequest is the params of session/delete.
type DeleteSessionRequest struct {
	SessionID string         `json:"sessionId"`
	Meta      map[string]any `json:"_meta,omitempty"`
}

// DeleteSessionResponse is the (empty) result of session/delete.
type DeleteSessionResponse struct {
	Meta map[string]any `json:"_meta,omitempty"`
}
