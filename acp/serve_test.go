package acp_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// TestServeContextCancelled checks Serve returns ctx.Err() when its
// context is cancelled while a read is blocked and a handler runs, having
// cancelled the handler and closed the reader.
func TestServeContextCancelled(t *testing.T) {
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	defer clientR.Close()
	started := make(chan struct{})
	agent := &fakeAgent{prompt: func(ctx context.Context, _ *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		close(started)
		<-ctx.Done()
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	}}
	go func() { _, _ = io.Copy(io.Discard, clientR) }()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- acp.Serve(ctx, serverR, serverW, agent.bind, acp.Options{}) }()
	if _, err := io.WriteString(clientW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"+
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	<-started
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Serve returned %v, want context.Canceled", err)
		}
	case <-time.After(hangGuard):
		t.Fatal("Serve did not return after its context was cancelled")
	}
	if _, err := io.WriteString(clientW, "\n"); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("writing after Serve returned: %v, want io.ErrClosedPipe (the reader is closed)", err)
	}
	serverW.Close()
}

// TestServeNilAgent checks a nil Agent is an error, not a panic.
func TestServeNilAgent(t *testing.T) {
	err := acp.Serve(context.Background(), eofReader{}, io.Discard, func(*acp.Conn) acp.Agent { return nil }, acp.Options{})
	if err == nil {
		t.Fatal("Serve accepted a nil Agent")
	}
}

// eofReader is an empty input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
