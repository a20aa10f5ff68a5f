package acp_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/acp"
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
			agent.initialize = func(_ context.Context, req acp.InitializeRequest) (acp.InitializeResponse, error) {
				if req.ClientInfo != nil {
					gotName = req.ClientInfo.Name
				}
				return acp.InitializeResponse{InitializeFields: acp.InitializeFields{ProtocolVersion: 1}}, nil
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

// TestStreamOversizedLine sends a 40 MiB request: it is refused with a
// clear error naming the 32 MiB limit and carrying the request's id (its
// client must not wait forever), and the next request is served.
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
	if string(f.ID) != "99" || !strings.Contains(f.Error.Message, "32 MiB") {
		t.Errorf("answer %s; want id 99 and a message naming the 32 MiB limit", f.Raw)
	}
	mustInitialize(ctx, t, c)
}

// TestStreamLineLimit checks the line limit at its edge and which id the
// refusal of a longer line carries: the request's when its first bytes
// hold it, null otherwise. The connection serves the next request after
// each.
func TestStreamLineLimit(t *testing.T) {
	const limit = 4096
	pad := func(prefix, suffix string, size int) string {
		return prefix + strings.Repeat("x", size-len(prefix)-len(suffix)) + suffix
	}
	prompt := func(id string) (string, string) {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"`, `"}]}}`
	}
	numberFirst, tail := prompt("7")
	stringFirst, _ := prompt(`"big"`)
	objectID, _ := prompt(`{"n":1}`)
	fractionID, _ := prompt(`1.5`)
	tests := []struct {
		name   string
		line   string
		wantID string // the refusal's id; "" when the line must be served
	}{
		{"a line of exactly the limit is served", pad(numberFirst, tail, limit), ""},
		{"one byte over: refused with its number id", pad(numberFirst, tail, limit+1), "7"},
		{"a string id", pad(stringFirst, tail, 3*limit), `"big"`},
		{"the id after the huge params", pad(`{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"`, `"}]},"id":8}`, 3*limit), "null"},
		{"small members before the id", pad(`{"jsonrpc":"2.0","method":"session/prompt","x":{"a":[1,{"b":2}]},"id":9,"params":{"sessionId":"s1","prompt":[{"type":"text","text":"`, tail, 3*limit), "9"},
		{"an object id", pad(objectID, tail, 3*limit), "null"},
		{"a fractional id", pad(fractionID, tail, 3*limit), "null"},
		{"not JSON", strings.Repeat("garbage ", limit), "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			agent := &fakeAgent{}
			c := acptest.Connect(t, func(ctx context.Context, r io.Reader, w io.Writer) error {
				return acp.Serve(ctx, r, w, agent.bind, acp.Options{MaxLineBytes: limit})
			}, acptest.WithSchema(mustSchema(t)))
			mustInitialize(ctx, t, c)
			if err := c.SendRaw(tt.line); err != nil {
				t.Fatal(err)
			}
			f, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.IsResponse() && f.Answers != "initialize" })
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.wantID == "" && f.Error != nil:
				t.Errorf("a line of exactly %d bytes was refused: %s", limit, f.Raw)
			case tt.wantID != "" && (f.Error == nil || f.Error.Code != -32600 || string(f.ID) != tt.wantID || !strings.Contains(f.Error.Message, "line limit")):
				t.Errorf("answer %.300s; want -32600 naming the line limit, id %s", f.Raw, tt.wantID)
			}
			mustInitialize(ctx, t, c)
		})
	}
}
