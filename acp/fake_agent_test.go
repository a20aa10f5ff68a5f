package acp_test

import (
	"context"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// fakeAgent is an acp.Agent whose methods a test sets; unset ones answer
// a minimal valid result.
type fakeAgent struct {
	conn *acp.Conn

	initialize func(ctx context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error)
	newSession func(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error)
	prompt     func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error)
	cancel     func(ctx context.Context, n acpsdk.CancelNotification)
}

// bind is the newAgent constructor handed to Serve.
func (a *fakeAgent) bind(conn *acp.Conn) acp.Agent {
	a.conn = conn
	return a
}

func (a *fakeAgent) Initialize(ctx context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
	if a.initialize != nil {
		return a.initialize(ctx, req)
	}
	return acp.InitializeResponse{InitializeFields: acp.InitializeFields{ProtocolVersion: acpsdk.ProtocolVersionNumber}}, nil
}

func (a *fakeAgent) Authenticate(ctx context.Context, req acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	return acpsdk.AuthenticateResponse{}, nil
}

func (a *fakeAgent) NewSession(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	if a.newSession != nil {
		return a.newSession(ctx, req)
	}
	return acp.NewSessionResponse{SessionID: "s1"}, nil
}

func (a *fakeAgent) Prompt(ctx context.Context, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	if a.prompt != nil {
		return a.prompt(ctx, a.conn, req)
	}
	return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
}

func (a *fakeAgent) Cancel(ctx context.Context, n acpsdk.CancelNotification) {
	if a.cancel != nil {
		a.cancel(ctx, n)
	}
}
