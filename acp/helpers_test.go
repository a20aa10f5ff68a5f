package acp_test

import (
	"context"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// hangGuard bounds every wait of a test: a guard against hangs, never a
// timing assertion, so generous enough for a loaded machine running the
// race detector.
const hangGuard = 2 * time.Minute

// testCtx bounds one test's waits (see hangGuard).
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	t.Cleanup(cancel)
	return ctx
}

// mustInitialize checks the connection still serves requests.
func mustInitialize(ctx context.Context, t *testing.T, c *acptest.Client) {
	t.Helper()
	var resp acpsdk.InitializeResponse
	if err := c.Call(ctx, "initialize", acpsdk.InitializeRequest{ProtocolVersion: 1}, &resp); err != nil {
		t.Fatalf("initialize after bad input: %v", err)
	}
	if resp.ProtocolVersion != 1 {
		t.Fatalf("initialize: protocolVersion %d, want 1", resp.ProtocolVersion)
	}
}

// rpcCode returns the JSON-RPC code of err, or 0.
func rpcCode(err error) int64 {
	if e, ok := err.(*acptest.RPCError); ok {
		return e.Code
	}
	return 0
}

// textPrompt is a session/prompt request with one text block.
func textPrompt(session acpsdk.SessionId, text string) acpsdk.PromptRequest {
	return acpsdk.PromptRequest{SessionId: session, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock(text)}}
}
