package acp_test

import (
	"context"
	"io"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
	"github.com/dsh-acp/dsh-acp/secrets"
)

// TestRedactorHidesSecretsInEveryFrame: with Options.Redactor, a secret
// in a session/update, in a permission request and in an error answer is
// written as secrets.Marker; a fs/write_text_file request keeps it, since
// its content is the user's file.
func TestRedactorHidesSecretsInEveryFrame(t *testing.T) {
	const secret = "tok-Zq8wX2vN\"pL4<rT6yB>"
	ctx := testCtx(t)
	agent := &fakeAgent{prompt: func(ctx context.Context, conn *acp.Conn, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		if err := conn.SessionUpdate(ctx, string(req.SessionId), acp.AgentMessageChunk{Content: acp.Text("the key: " + secret)}); err != nil {
			return acpsdk.PromptResponse{}, err
		}
		if _, err := conn.RequestPermission(ctx, acp.RequestPermissionRequest{SessionID: string(req.SessionId),
			ToolCall: acp.ToolCall{ToolCallID: "c1", Title: "echo " + secret},
			Options:  []acp.PermissionOption{{OptionID: "allow-once", Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce}}}); err != nil {
			return acpsdk.PromptResponse{}, err
		}
		if _, err := conn.WriteTextFile(ctx, acpsdk.WriteTextFileRequest{SessionId: req.SessionId, Path: "/w/.env", Content: "KEY=" + secret + "\n"}); err != nil {
			return acpsdk.PromptResponse{}, err
		}
		return acpsdk.PromptResponse{}, acp.InternalError("failed near %s", secret)
	}}
	c := acptest.Connect(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
		return acp.Serve(ctx, r, w, agent.bind, acp.Options{Redactor: secrets.NewRedactor(secret)})
	})
	c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
		return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: "allow-once"}}}
	})
	var written string
	c.HandleWriteTextFile(func(req acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
		written = req.Content
		return acpsdk.WriteTextFileResponse{}, nil
	})
	mustInitialize(ctx, t, c)
	err := c.Call(ctx, "session/prompt", textPrompt("s1", "go"), &acpsdk.PromptResponse{})
	if err == nil || !strings.Contains(err.Error(), "failed near "+secrets.Marker) {
		t.Errorf("the answer's error = %v, want the secret redacted", err)
	}
	if written != "KEY="+secret+"\n" {
		t.Errorf("fs/write_text_file content = %q, want the secret intact", written)
	}
	redacted := 0
	for _, f := range c.Frames() {
		if f.Method == "fs/write_text_file" {
			continue
		}
		if strings.Contains(string(f.Raw), "Zq8wX2vN") {
			t.Errorf("frame %s shows the secret: %s", f.Method, f.Raw)
		}
		if strings.Contains(string(f.Raw), secrets.Marker) {
			redacted++
		}
	}
	if redacted != 3 {
		t.Errorf("%d frames show %s, want 3 (the update, the permission request, the error)", redacted, secrets.Marker)
	}
}
