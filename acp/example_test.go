package acp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
)

// hello is a minimal agent: it greets and ends every turn.
type hello struct{ client *acp.Conn }

func (h *hello) Initialize(ctx context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{InitializeFields: acp.InitializeFields{ProtocolVersion: acpsdk.ProtocolVersionNumber}}, nil
}

func (h *hello) Authenticate(ctx context.Context, req acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	return acpsdk.AuthenticateResponse{}, nil
}

func (h *hello) NewSession(ctx context.Context, req acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	return acp.NewSessionResponse{SessionID: "s1"}, nil
}

func (h *hello) Prompt(ctx context.Context, req acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	err := h.client.SessionUpdate(ctx, string(req.SessionId), acp.AgentMessageChunk{Content: acp.Text("hello")})
	return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, err
}

func (h *hello) Cancel(ctx context.Context, n acpsdk.CancelNotification) {}

// Serve reads the client's frames until EOF. Here the client is a script
// that sends one line at a time and prints what comes back until the
// answer: a blank line is skipped, garbage is answered -32700, an
// unimplemented method -32601, and a prompt streams an update before its
// answer.
func ExampleServe() {
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- acp.Serve(context.Background(), serverR, serverW,
			func(c *acp.Conn) acp.Agent { return &hello{client: c} }, acp.Options{})
		serverW.Close()
	}()

	out := bufio.NewScanner(clientR)
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		``,
		`not json`,
		`{"jsonrpc":"2.0","id":2,"method":"session/load","params":{}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`,
	} {
		fmt.Fprintln(clientW, line)
		for line != "" && out.Scan() {
			fmt.Println(out.Text())
			if strings.Contains(out.Text(), `"id":`) {
				break // the answer
			}
		}
	}
	clientW.Close() // EOF: Serve cancels what is in flight and returns
	fmt.Println("serve:", <-done)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"agentCapabilities":{"auth":{},"mcpCapabilities":{},"promptCapabilities":{},"sessionCapabilities":{}},"authMethods":[],"protocolVersion":1}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid character 'o' in literal null (expecting 'u')"}}
	// {"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: \"session/load\""}}
	// {"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}
	// {"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}
	// serve: <nil>
}
