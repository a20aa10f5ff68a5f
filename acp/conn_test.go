package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// permissionRequest is a schema-valid session/request_permission.
func permissionRequest(session acpsdk.SessionId) acp.RequestPermissionRequest {
	return acp.RequestPermissionRequest{
		SessionID: string(session),
		ToolCall: acp.ToolCall{ToolCallID: "call-1", Title: "rm -rf build", Kind: acp.ToolKindExecute,
			RawInput: json.RawMessage(`{"command":"rm -rf build"}`)},
		Options: []acp.PermissionOption{
			{OptionID: "allow-once", Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
			{OptionID: "reject-once", Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
		},
	}
}

// TestPermissionWhileCancelArrives is the deadlock case: the prompt waits
// on session/request_permission while the client sends session/cancel.
// The cancel must reach the Agent and the prompt's ctx while the
// permission request is still pending, and the turn ends "cancelled".
func TestPermissionWhileCancelArrives(t *testing.T) {
	ctx := testCtx(t)
	asked := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	cancelSeen := make(chan acpsdk.SessionId, 1)
	permErr := make(chan error, 1)
	agent := &fakeAgent{
		prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
			_, err := conn.RequestPermission(ctx, permissionRequest(req.SessionId))
			permErr <- err
			if err != nil {
				return acpsdk.PromptResponse{}, err // the cancellation; acp answers stopReason cancelled
			}
			return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
		},
		cancel: func(_ context.Context, n acpsdk.CancelNotification) { cancelSeen <- n.SessionId },
	}
	c := newClient(t, agent)
	c.HandlePermission(func(acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		close(asked)
		<-release
		return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Cancelled: &acpsdk.RequestPermissionOutcomeCancelled{}}}
	})
	done := make(chan error, 1)
	var resp acpsdk.PromptResponse
	go func() { done <- c.Call(ctx, "session/prompt", textPrompt("s1", "delete it"), &resp) }()
	<-asked
	if err := c.Notify("session/cancel", acpsdk.CancelNotification{SessionId: "s1"}); err != nil {
		t.Fatal(err)
	}
	select {
	case id := <-cancelSeen:
		if id != "s1" {
			t.Errorf("Cancel for %q, want s1", id)
		}
	case <-ctx.Done():
		t.Fatal("session/cancel was not seen while the permission request was pending")
	}
	if err := <-done; err != nil {
		t.Fatalf("session/prompt: %v", err)
	}
	if resp.StopReason != acpsdk.StopReasonCancelled {
		t.Errorf("stopReason %q, want cancelled", resp.StopReason)
	}
	if err := <-permErr; !errors.Is(err, context.Canceled) {
		t.Errorf("RequestPermission returned %v, want the cancellation", err)
	}
	mustInitialize(ctx, t, c)
}

// TestPermissionAnswers checks the answers RequestPermission accepts and
// the garbage it refuses with ErrInvalidAnswer, the connection serving on.
func TestPermissionAnswers(t *testing.T) {
	tests := []struct {
		name       string
		answer     string
		wantOption string // "" with wantErr false: cancelled
		wantErr    error
		wantCode   int64
	}{
		{"selected", `{"outcome":{"outcome":"selected","optionId":"allow-once"}}`, "allow-once", nil, 0},
		{"cancelled", `{"outcome":{"outcome":"cancelled"}}`, "", nil, 0},
		{"unknown outcome", `{"outcome":{"outcome":"maybe"}}`, "", acp.ErrInvalidAnswer, 0},
		{"selected without optionId", `{"outcome":{"outcome":"selected"}}`, "", acp.ErrInvalidAnswer, 0},
		{"no outcome", `{}`, "", acp.ErrInvalidAnswer, 0},
		{"outcome not an object", `{"outcome":5}`, "", acp.ErrInvalidAnswer, 0},
		{"a string", `"yes"`, "", acp.ErrInvalidAnswer, 0},
		{"null", `null`, "", acp.ErrInvalidAnswer, 0},
		{"an error", ``, "", nil, -32603},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			type outcome struct {
				resp acpsdk.RequestPermissionResponse
				err  error
			}
			got := make(chan outcome, 1)
			agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
				resp, err := conn.RequestPermission(ctx, permissionRequest(req.SessionId))
				got <- outcome{resp, err}
				return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
			}}
			c := newClient(t, agent)
			c.Handle("session/request_permission", func(context.Context, json.RawMessage) (any, error) {
				if tt.answer == "" {
					return nil, errors.New("the user closed the dialog")
				}
				return json.RawMessage(tt.answer), nil
			})
			if err := c.Call(ctx, "session/prompt", textPrompt("s1", "go"), nil); err != nil {
				t.Fatal(err)
			}
			o := <-got
			switch {
			case tt.wantCode != 0:
				if code, ok := acp.ErrorCode(o.err); !ok || int64(code) != tt.wantCode {
					t.Errorf("err %v, want code %d", o.err, tt.wantCode)
				}
			case tt.wantErr != nil:
				if !errors.Is(o.err, tt.wantErr) {
					t.Errorf("err %v, want %v", o.err, tt.wantErr)
				}
			case o.err != nil:
				t.Errorf("err %v", o.err)
			case tt.wantOption != "":
				if o.resp.Outcome.Selected == nil || string(o.resp.Outcome.Selected.OptionId) != tt.wantOption {
					t.Errorf("outcome %+v, want selected %s", o.resp.Outcome, tt.wantOption)
				}
			default:
				if o.resp.Outcome.Cancelled == nil {
					t.Errorf("outcome %+v, want cancelled", o.resp.Outcome)
				}
			}
			mustInitialize(ctx, t, c)
		})
	}
}

// TestFileCalls round-trips fs/read_text_file and fs/write_text_file,
// including an empty file and a client error.
func TestFileCalls(t *testing.T) {
	ctx := testCtx(t)
	files := map[string]string{"/w/empty.txt": ""}
	agent := &fakeAgent{}
	c := newClient(t, agent)
	c.HandleWriteTextFile(func(req acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
		files[req.Path] = req.Content
		return acpsdk.WriteTextFileResponse{}, nil
	})
	c.HandleReadTextFile(func(req acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
		content, ok := files[req.Path]
		if !ok {
			return acpsdk.ReadTextFileResponse{}, &acptest.RPCError{Code: -32002, Message: "not found: " + req.Path}
		}
		return acpsdk.ReadTextFileResponse{Content: content}, nil
	})
	mustInitialize(ctx, t, c) // the agent is bound once Serve runs
	conn := agent.conn
	if _, err := conn.WriteTextFile(ctx, acpsdk.WriteTextFileRequest{SessionId: "s1", Path: "/w/a.go", Content: "package a\n"}); err != nil {
		t.Fatalf("write: %v", err)
	}
	tests := []struct {
		path, want string
		wantCode   int64
	}{
		{"/w/a.go", "package a\n", 0},
		{"/w/empty.txt", "", 0},
		{"/w/missing.go", "", -32002},
	}
	for _, tt := range tests {
		resp, err := conn.ReadTextFile(ctx, acpsdk.ReadTextFileRequest{SessionId: "s1", Path: tt.path})
		if tt.wantCode != 0 {
			if code, _ := acp.ErrorCode(err); int64(code) != tt.wantCode {
				t.Errorf("read %s: %v, want code %d", tt.path, err, tt.wantCode)
			}
			continue
		}
		if err != nil || resp.Content != tt.want {
			t.Errorf("read %s = %q, %v; want %q", tt.path, resp.Content, err, tt.want)
		}
	}
}
