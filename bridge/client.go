package bridge

import (
	"context"
	"fmt"

	"github.com/dsh-acp/dsh-acp/acp"
)

// Client is the editor as a session sees it: the calls the bridge makes to
// it. *acp.Conn implements it.
type Client interface {
	SessionUpdate(ctx context.Context, sessionID string, u acp.Update) error
	RequestPermission(ctx context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error)
	ReadTextFile(ctx context.Context, req acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error)
	WriteTextFile(ctx context.Context, req acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error)
	CreateElicitation(ctx context.Context, req acp.ElicitationForm) (acp.ElicitationResponse, error)
}

// sessionClient is the client as one session calls it: every call first
// sends every update the session queued before it, so the editor has seen
// the tool_call a request is about, and the thought and message that led
// to it, before the request (a permission prompt, a form, a file read or write)
// arrives. Every call a session makes to the client goes through it.
//
// It spells out each method rather than embedding Client, so a method
// added to Client (terminal/*, …) does not compile until it flushes too.
type sessionClient struct {
	client Client
	out    *outbox
}

var _ Client = sessionClient{}

// SessionUpdate implements Client.
func (c sessionClient) SessionUpdate(ctx context.Context, sessionID string, u acp.Update) error {
	if err := c.flush(ctx, acp.ClientMethodSessionUpdate); err != nil {
		return err
	}
	return c.client.SessionUpdate(ctx, sessionID, u)
}

// RequestPermission implements Client.
func (c sessionClient) RequestPermission(ctx context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	if err := c.flush(ctx, acp.ClientMethodSessionRequestPermission); err != nil {
		return acp.RequestPermissionResponse{}, err
	}
	return c.client.RequestPermission(ctx, req)
}

// ReadTextFile implements Client.
func (c sessionClient) ReadTextFile(ctx context.Context, req acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	if err := c.flush(ctx, acp.ClientMethodFsReadTextFile); err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	return c.client.ReadTextFile(ctx, req)
}

// WriteTextFile implements Client.
func (c sessionClient) WriteTextFile(ctx context.Context, req acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	if err := c.flush(ctx, acp.ClientMethodFsWriteTextFile); err != nil {
		return acp.WriteTextFileResponse{}, err
	}
	return c.client.WriteTextFile(ctx, req)
}

// CreateElicitation implements Client.
func (c sessionClient) CreateElicitation(ctx context.Context, req acp.ElicitationForm) (acp.ElicitationResponse, error) {
	if err := c.flush(ctx, acp.ClientMethodElicitationCreate); err != nil {
		return acp.ElicitationResponse{}, err
	}
	return c.client.CreateElicitation(ctx, req)
}

// flush waits until the session's queued updates are sent, or ctx ends.
func (c sessionClient) flush(ctx context.Context, method string) error {
	if err := c.out.flush(ctx); err != nil {
		return fmt.Errorf("%s not sent: the session's earlier updates were not delivered: %w", method, err)
	}
	return nil
}
