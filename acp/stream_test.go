package acp_test

import (
	"context"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// TestStreamToleratesBadInput sends bad lines, checks each answer (or its
// absence), then checks the connection still serves a request.
func TestStreamToleratesBadInput(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":1}}`
	tests := []struct {
		name     string
		lines    []string
		wantCode int64  // 0: no error answer expected
		wantID   string // the answer's id; "null" for unreadable input
		wantText string // a substring of the error message
	}{
		{name: "blank lines", lines: []string{"", "   ", "\t", "\r"}},
		{name: "garbage", lines: []string{"{not json}"}, wantCode: -32700, wantID: "null", wantText: "parse error"},
		{name: "truncated object", lines: []string{`{"jsonrpc":"2.0","id":1,`}, wantCode: -32700, wantID: "null"},
		{name: "batch", lines: []string{"[" + strings.Replace(initialize, "%s", "1", 1) + "]"}, wantCode: -32600, wantID: "null", wantText: "JSON-RPC batches are not supported"},
		{name: "empty batch", lines: []string{"[]"}, wantCode: -32600, wantID: "null", wantText: "batches"},
		{name: "scalar", lines: []string{"42"}, wantCode: -32600, wantID: "null", wantText: "JSON object"},
		{name: "no jsonrpc member", lines: []string{`{"id":7,"method":"initialize","params":{"protocolVersion":1}}`}, wantCode: -32600, wantID: "7"},
		{name: "method not a string", lines: []string{`{"jsonrpc":"2.0","id":"x","method":5}`}, wantCode: -32600, wantID: `"x"`},
		{name: "a null id", lines: []string{`{"jsonrpc":"2.0","id":null,"method":"initialize","params":{"protocolVersion":1}}`}, wantCode: -32600, wantID: "null", wantText: "may not be null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			c := newClient(t, &fakeAgent{})
			for _, line := range tt.lines {
				if err := c.SendRaw(line); err != nil {
					t.Fatal(err)
				}
			}
			mustInitialize(ctx, t, c)
			var errs []acptest.Frame
			for _, f := range c.Frames() {
				if f.Error != nil {
					errs = append(errs, f)
				}
			}
			if tt.wantCode == 0 {
				if len(errs) != 0 {
					t.Fatalf("got error answers %v, want none", errs[0].Raw)
				}
				return
			}
			if len(errs) != 1 {
				t.Fatalf("got %d error answers, want 1: %v", len(errs), c.Frames())
			}
			f := errs[0]
			if f.Error.Code != tt.wantCode || string(f.ID) != tt.wantID || !strings.Contains(f.Error.Message, tt.wantText) {
				t.Errorf("answer %s; want code %d, id %s, message containing %q", f.Raw, tt.wantCode, tt.wantID, tt.wantText)
			}
		})
	}
}

// TestStreamLineEndingsAndEncoding checks CRLF, a last line without a
// newline is not needed, and invalid UTF-8 is served with U+FFFD.
func TestStreamLineEndingsAndEncoding(t *testing.T) {
	tests := []struct {
		name string
		line string
	}{
		{"CRLF", `{"jsonrpc":"2.0","id":"crlf","method":"initialize","params":{"protocolVersion":1}}` + "\r"},
		{"leading whitespace", "  \t" + `{"jsonrpc":"2.0","id":"ws","method":"initialize","params":{"protocolVersion":1}}`},
		{"invalid UTF-8", `{"jsonrpc":"2.0","id":"utf8","method":"initialize","params":{"protocolVersion":1,"clientInfo":{"name":"ed` + "\xff\xfe" + `","version":"1"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			agent := &fakeAgent{}
			var gotName string
			agent.initialize = func(_ context.Context, req acpsdk.InitializeRequest) (acpsdk.InitializeResponse, error) {
				if req.ClientInfo != nil {
					gotName = req.ClientInfo.Name
				}
				return acpsdk.InitializeResponse{ProtocolVersion: 1}, nil
			}
			c := newClient(t, agent)
			if err := c.SendRaw(tt.line); err != nil {
				t.Fatal(err)
			}
			f, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.IsResponse() })
			if err != nil {
				t.Fatal(err)
			}
			if f.Error != nil {
				t.Fatalf("answer %s, want a result", f.Raw)
			}
			if tt.name == "invalid UTF-8" && gotName != "ed\uFFFD" {
				t.Errorf("clientInfo.name = %q, want %q", gotName, "ed\uFFFD")
			}
			mustInitialize(ctx, t, c)
		})
	}
}

// TestStreamOversizedLine sends a 40 MiB line: it is refused with a clear
// error naming the 32 MiB limit, and the next request is served.
func TestStreamOversizedLine(t *testing.T) {
	ctx := testCtx(t)
	c := newClient(t, &fakeAgent{})
	huge := `{"jsonrpc":"2.0","id":99,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"` +
		strings.Repeat("x", 40<<20) + `"}]}}`
	if err := c.SendRaw(huge); err != nil {
		t.Fatal(err)
	}
	f, err := c.WaitFrame(ctx, acptest.ErrorFrame(-32600))
	if err != nil {
		t.Fatal(err)
	}
	if !f.HasNullID() || !strings.Contains(f.Error.Message, "32 MiB") {
		t.Errorf("answer %s; want id null and a message naming the 32 MiB limit", f.Raw)
	}
	mustInitialize(ctx, t, c)
}
