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
		fail     func() (acp.NewSessionResponse, error)
		wantCode int64
		wantText string
	}{
		{"panic", func() (acp.NewSessionResponse, error) { panic("boom") }, -32603, "boom"},
		{"nil map panic", func() (acp.NewSessionResponse, error) {
			var m map[string]int
			m["x"] = 1
			return acp.NewSessionResponse{}, nil
		}, -32603, "panicked"},
		{"plain error", func() (acp.NewSessionResponse, error) {
			return acp.NewSessionResponse{}, errors.New("disk on fire")
		}, -32603, "disk on fire"},
		{"coded error", func() (acp.NewSessionResponse, error) {
			return acp.NewSessionResponse{}, acp.InvalidParams("cwd must be absolute, got %q", "rel")
		}, -32602, `cwd must be absolute, got "rel"`},
		{"wrapped coded error", func() (acp.NewSessionResponse, error) {
			return acp.NewSessionResponse{}, fmt.Errorf("loading: %w", acp.ResourceNotFound("session %s not found", "s9"))
		}, -32002, "loading: session s9 not found"},
		{"context cancelled", func() (acp.NewSessionResponse, error) { return acp.NewSessionResponse{}, context.Canceled }, -32800, "cancelled"},
		{"internal", func() (acp.NewSessionResponse, error) {
			return acp.NewSessionResponse{}, acp.InternalError("x %d", 1)
		}, -32603, "x 1"},
		{"method not found helper", func() (acp.NewSessionResponse, error) { return acp.NewSessionResponse{}, acp.MethodNotFound("y") }, -32601, `"y"`},
		{"request cancelled helper", func() (acp.NewSessionResponse, error) { return acp.NewSessionResponse{}, acp.RequestCancelled() }, -32800, "cancelled"},
		{"auth required", func() (acp.NewSessionResponse, error) {
			return acp.NewSessionResponse{}, acp.AuthRequired("log in")
		}, -32000, "log in"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			agent := &fakeAgent{newSession: func(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) { return tt.fail() }}
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
		{"session/set_model is not implemented", "session/set_model"},
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

// TestRequestsBeforeInitialize checks that every request but initialize is
// refused with a clear error until initialize has been answered with a
// result, and that the connection serves them afterwards.
func TestRequestsBeforeInitialize(t *testing.T) {
	tests := []struct {
		method string
		params any
	}{
		{"session/new", acpsdk.NewSessionRequest{Cwd: "/w", McpServers: []acpsdk.McpServer{}}},
		{"session/prompt", textPrompt("s1", "hi")},
		{"authenticate", acpsdk.AuthenticateRequest{MethodId: "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			ctx := testCtx(t)
			c := acptest.NewClient(t, (&fakeAgent{}).bind, acptest.WithSchema(mustSchema(t)))
			err := c.Call(ctx, tt.method, tt.params, nil)
			if rpcCode(err) != -32600 || !strings.Contains(err.Error(), tt.method+" before initialize") || !strings.Contains(err.Error(), "send initialize first") {
				t.Fatalf("%s before initialize answered %v; want -32600 saying to send initialize first", tt.method, err)
			}
			// A failed initialize does not count.
			if err := c.Call(ctx, "initialize", map[string]any{}, nil); rpcCode(err) != -32602 {
				t.Fatalf("initialize without protocolVersion answered %v, want -32602", err)
			}
			if err := c.Call(ctx, tt.method, tt.params, nil); rpcCode(err) != -32600 {
				t.Fatalf("%s after a failed initialize answered %v, want -32600", tt.method, err)
			}
			mustInitialize(ctx, t, c)
			if err := c.Call(ctx, tt.method, tt.params, nil); err != nil {
				t.Fatalf("%s after initialize: %v", tt.method, err)
			}
		})
	}
}

// TestInitializeIsSeenByWhatFollows checks a request sent right behind
// initialize, without waiting for its answer, is served as initialized:
// initialize holds the read loop until it is answered.
func TestInitializeIsSeenByWhatFollows(t *testing.T) {
	ctx := testCtx(t)
	release := make(chan struct{})
	agent := &fakeAgent{initialize: func(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
		<-release
		return acp.InitializeResponse{InitializeFields: acp.InitializeFields{ProtocolVersion: 1}}, nil
	}}
	c := acptest.NewClient(t, agent.bind, acptest.WithSchema(mustSchema(t)))
	if err := c.SendRaw(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":1}}`); err != nil {
		t.Fatal(err)
	}
	// The pipe is unbuffered: this write completes only once the server
	// reads on, so it must not wait here.
	sent := make(chan error, 1)
	go func() {
		sent <- c.SendRaw(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":"/w","mcpServers":[]}}`)
	}()
	close(release)
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	f, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return string(f.ID) == `"new"` })
	if err != nil {
		t.Fatal(err)
	}
	if f.Error != nil {
		t.Errorf("session/new right behind initialize answered %s, want a result", f.Raw)
	}
}

// TestDuplicateRequestID checks a request whose id is in use by a request
// still in flight is refused with a clear error, while the first runs on
// and is answered; once it is, the id may be used again.
func TestDuplicateRequestID(t *testing.T) {
	for _, id := range []string{`7`, `"p-1"`} {
		t.Run(id, func(t *testing.T) {
			ctx := testCtx(t)
			started := make(chan struct{}, 4)
			release := make(chan struct{})
			agent := &fakeAgent{prompt: func(ctx context.Context, _ *acp.Conn, _ acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
				started <- struct{}{}
				select {
				case <-release:
				case <-ctx.Done():
				}
				return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
			}}
			c := newClient(t, agent)
			prompt := `{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"hi"}]}}`
			if err := c.SendRaw(prompt); err != nil {
				t.Fatal(err)
			}
			<-started
			if err := c.SendRaw(prompt); err != nil {
				t.Fatal(err)
			}
			f, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.IsResponse() && string(f.ID) == id })
			if err != nil {
				t.Fatal(err)
			}
			if f.Error == nil || f.Error.Code != -32600 || !strings.Contains(f.Error.Message, "request id "+id+" is already in use") {
				t.Fatalf("the duplicate was answered %s; want -32600 saying the id is in use", f.Raw)
			}
			close(release)
			f, err = c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.IsResponse() && string(f.ID) == id })
			if err != nil {
				t.Fatal(err)
			}
			if f.Error != nil || !strings.Contains(string(f.Result), "end_turn") {
				t.Fatalf("the first request was answered %s, want end_turn", f.Raw)
			}
			if n := len(started); n != 0 {
				t.Fatalf("the duplicate reached the agent (%d extra prompts)", n)
			}
			// The id is free again.
			if err := c.SendRaw(prompt); err != nil {
				t.Fatal(err)
			}
			f, err = c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.IsResponse() && string(f.ID) == id })
			if err != nil || f.Error != nil {
				t.Fatalf("the id reused after its answer: %s, %v", f.Raw, err)
			}
			mustInitialize(ctx, t, c)
		})
	}
}
