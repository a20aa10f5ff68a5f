package acp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// TestAgentErrorsOnTheWire checks how what an Agent method returns (or
// how it fails) is answered, and that the connection keeps serving.
func TestAgentErrorsOnTheWire(t *testing.T) {
	tests := []struct {
		name     string
		fail     func() (acpsdk.NewSessionResponse, error)
		wantCode int64
		wantText string
	}{
		{"panic", func() (acpsdk.NewSessionResponse, error) { panic("boom") }, -32603, "boom"},
		{"nil map panic", func() (acpsdk.NewSessionResponse, error) {
			var m map[string]int
			m["x"] = 1
			return acpsdk.NewSessionResponse{}, nil
		}, -32603, "panicked"},
		{"plain error", func() (acpsdk.NewSessionResponse, error) {
			return acpsdk.NewSessionResponse{}, errors.New("disk on fire")
		}, -32603, "disk on fire"},
		{"coded error", func() (acpsdk.NewSessionResponse, error) {
			return acpsdk.NewSessionResponse{}, acp.InvalidParams("cwd must be absolute, got %q", "rel")
		}, -32602, `cwd must be absolute, got "rel"`},
		{"wrapped coded error", func() (acpsdk.NewSessionResponse, error) {
			return acpsdk.NewSessionResponse{}, fmt.Errorf("loading: %w", acp.ResourceNotFound("session %s not found", "s9"))
		}, -32002, "loading: session s9 not found"},
		{"context cancelled", func() (acpsdk.NewSessionResponse, error) { return acpsdk.NewSessionResponse{}, context.Canceled }, -32800, "cancelled"},
		{"internal", func() (acpsdk.NewSessionResponse, error) {
			return acpsdk.NewSessionResponse{}, acp.InternalError("x %d", 1)
		}, -32603, "x 1"},
		{"method not found helper", func() (acpsdk.NewSessionResponse, error) { return acpsdk.NewSessionResponse{}, acp.MethodNotFound("y") }, -32601, `"y"`},
		{"request cancelled helper", func() (acpsdk.NewSessionResponse, error) { return acpsdk.NewSessionResponse{}, acp.RequestCancelled() }, -32800, "cancelled"},
		{"auth required", func() (acpsdk.NewSessionResponse, error) {
			return acpsdk.NewSessionResponse{}, acp.AuthRequired("log in")
		}, -32000, "log in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			agent := &fakeAgent{newSession: func(context.Context, acpsdk.NewSessionRequest) (acpsdk.NewSessionResponse, error) { return tt.fail() }}
			c := newClient(t, agent)
			err := c.Call(ctx, "session/new", acpsdk.NewSessionRequest{Cwd: "/w", McpServers: []acpsdk.McpServer{}}, nil)
			var rpcErr *acptest.RPCError
			if !errors.As(err, &rpcErr) || rpcErr.Code != tt.wantCode || !strings.Contains(rpcErr.Message, tt.wantText) {
				t.Fatalf("session/new answered %v; want code %d with %q", err, tt.wantCode, tt.wantText)
			}
			mustInitialize(ctx, t, c)
		})
	}
}

// TestUnknownMethods checks unknown and not-yet-implemented methods get
// -32601, unknown notifications are dropped, and serving goes on.
func TestUnknownMethods(t *testing.T) {
	tests := []struct {
		name   string
		method string
	}{
		{"session/load is not implemented", "session/load"},
		{"session/set_mode is not implemented", "session/set_mode"},
		{"extension method", "_zed/whatever"},
		{"nonsense", "no/such/method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			c := newClient(t, &fakeAgent{})
			err := c.Call(ctx, tt.method, map[string]any{"sessionId": "s1"}, nil)
			if rpcCode(err) != -32601 || !strings.Contains(err.Error(), tt.method) {
				t.Fatalf("%s answered %v, want -32601 naming the method", tt.method, err)
			}
			if err := c.Notify(tt.method, map[string]any{"x": 1}); err != nil {
				t.Fatal(err)
			}
			mustInitialize(ctx, t, c)
			for _, f := range c.Frames() {
				if f.IsResponse() && f.Answers == "" {
					t.Errorf("a notification was answered: %s", f.Raw)
				}
			}
		})
	}
}

// TestInvalidParams checks params that do not fit the SDK type get -32602
// with a message naming the problem.
func TestInvalidParams(t *testing.T) {
	tests := []struct {
		name, method, params, wantText string
	}{
		{"wrong type", "initialize", `{"protocolVersion":"one"}`, `"protocolVersion"`},
		{"missing protocolVersion", "initialize", `{}`, `missing required field "protocolVersion"`},
		{"params not an object", "initialize", `[1]`, "JSON object"},
		{"no params", "session/new", ``, `missing required field "cwd"`},
		{"cwd not a string", "session/new", `{"cwd":5,"mcpServers":[]}`, `"cwd" must be a string`},
		{"missing mcpServers", "session/new", `{"cwd":"/w"}`, `missing required field "mcpServers"`},
		{"null mcpServers", "session/new", `{"cwd":"/w","mcpServers":null}`, `missing required field "mcpServers"`},
		{"prompt without sessionId", "session/prompt", `{"prompt":[]}`, `missing required field "sessionId"`},
		{"prompt not an array", "session/prompt", `{"sessionId":"s1","prompt":"hi"}`, `"prompt"`},
		{"authenticate without methodId", "authenticate", `{}`, `missing required field "methodId"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			c := newClient(t, &fakeAgent{})
			line := `{"jsonrpc":"2.0","id":"bad","method":"` + tt.method + `"`
			if tt.params != "" {
				line += `,"params":` + tt.params
			}
			if err := c.SendRaw(line + "}"); err != nil {
				t.Fatal(err)
			}
			f, err := c.WaitFrame(ctx, acptest.ErrorFrame(-32602))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(f.Error.Message, tt.wantText) || !strings.Contains(f.Error.Message, tt.method) {
				t.Errorf("answer %q; want the method and %q", f.Error.Message, tt.wantText)
			}
			mustInitialize(ctx, t, c)
		})
	}
}

// TestCancelRequest checks $/cancel_request cancels the request's context
// and the request is still answered, with -32800.
func TestCancelRequest(t *testing.T) {
	tests := []struct {
		name string
		id   string
	}{
		{"number id", `41`},
		{"string id", `"p-1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			started := make(chan struct{})
			causes := make(chan error, 1)
			agent := &fakeAgent{prompt: func(ctx context.Context, _ *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
				close(started)
				<-ctx.Done()
				causes <- context.Cause(ctx)
				return acpsdk.PromptResponse{}, ctx.Err()
			}}
			c := newClient(t, agent)
			if err := c.SendRaw(`{"jsonrpc":"2.0","id":` + tt.id + `,"method":"session/prompt","params":{"sessionId":"s1","prompt":[]}}`); err != nil {
				t.Fatal(err)
			}
			<-started
			if err := c.SendRaw(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":` + tt.id + `}}`); err != nil {
				t.Fatal(err)
			}
			f, err := c.WaitFrame(ctx, acptest.ErrorFrame(-32800))
			if err != nil {
				t.Fatal(err)
			}
			if string(f.ID) != tt.id {
				t.Errorf("-32800 answered id %s, want %s", f.ID, tt.id)
			}
			if cause := <-causes; !errors.Is(cause, acp.ErrRequestCancelled) {
				t.Errorf("cause %v, want ErrRequestCancelled", cause)
			}
			mustInitialize(ctx, t, c)
		})
	}
}

// TestEOFCancelsInFlightHandlers checks that when the client's stream
// ends, every in-flight handler's ctx is cancelled (cause ErrDisconnected)
// and Serve returns nil once they are done.
func TestEOFCancelsInFlightHandlers(t *testing.T) {
	ctx := testCtx(t)
	const inFlight = 3
	started := make(chan struct{}, inFlight)
	causes := make(chan error, inFlight)
	agent := &fakeAgent{prompt: func(ctx context.Context, _ *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
		started <- struct{}{}
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	}}
	c := newClient(t, agent)
	for i := range inFlight {
		if err := c.SendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/prompt","params":{"sessionId":"s%d","prompt":[]}}`, i, i)); err != nil {
			t.Fatal(err)
		}
	}
	for range inFlight {
		select {
		case <-started:
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Serve returned %v after EOF, want nil", err)
	}
	for range inFlight {
		if cause := <-causes; !errors.Is(cause, acp.ErrDisconnected) {
			t.Errorf("cause %v, want ErrDisconnected", cause)
		}
	}
}
