package acptest_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"github.com/dsh-acp/dsh-acp/acp/acptest"
)

// recorder is a testing.TB that records Errorf instead of failing, so a
// test can check the Client reports a violation.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) reported() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

// scripted is a server that answers each request line with its reply, in
// which ID stands for the request's id; extra lines go out first.
func scripted(extra []string, reply string) acptest.ServeFunc {
	return func(ctx context.Context, r io.Reader, w io.Writer) error {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var req struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
				continue
			}
			for _, line := range extra {
				if _, err := io.WriteString(w, line+"\n"); err != nil {
					return err
				}
			}
			if _, err := io.WriteString(w, strings.ReplaceAll(reply, "ID", string(req.ID))+"\n"); err != nil {
				return err
			}
		}
		return sc.Err()
	}
}

// TestClientFlagsViolations checks every kind of bad frame a server can
// write fails the test, and a good exchange does not.
func TestClientFlagsViolations(t *testing.T) {
	const endTurn = `{"jsonrpc":"2.0","id":ID,"result":{"stopReason":"end_turn"}}`
	tests := []struct {
		name   string
		extra  []string
		reply  string
		wantIn string // "" : no violation expected
	}{
		{"good", []string{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`}, endTurn, ""},
		{"stopReason done", nil, `{"jsonrpc":"2.0","id":ID,"result":{"stopReason":"done"}}`, "PromptResponse"},
		{"tool_call without title", []string{`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"c1"}}}`}, endTurn, "SessionNotification"},
		{"log line on stdout", []string{`starting dsh-acp v0.1`}, endTurn, "not a JSON-RPC frame"},
		{"blank line on stdout", []string{``}, endTurn, "not a JSON-RPC frame"},
		{"missing jsonrpc", []string{`{"method":"session/update","params":{}}`}, endTurn, `"jsonrpc"`},
		{"error code 0", nil, `{"jsonrpc":"2.0","id":ID,"error":{"code":0,"message":"oops"}}`, "code 0"},
		{"answer to an unknown id", []string{`{"jsonrpc":"2.0","id":777,"result":{}}`}, endTurn, "never sent"},
		{"result and error", nil, `{"jsonrpc":"2.0","id":ID,"result":{},"error":{"code":-32603,"message":"x"}}`, "exactly one"},
		{"unknown notification", []string{`{"jsonrpc":"2.0","method":"session/telepathy","params":{}}`}, endTurn, "defines no"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			c := acptest.Connect(rec, scripted(tt.extra, tt.reply), acptest.WithSchema(mustSchema(t)))
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			_ = c.Call(ctx, "session/prompt", acpsdk.PromptRequest{SessionId: "s1", Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("hi")}}, nil)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			requireReported(t, rec, tt.wantIn)
		})
	}
}

// TestClientAnswersServerRequests checks handlers answer the server's
// requests, and a request without a handler gets -32601.
func TestClientAnswersServerRequests(t *testing.T) {
	tests := []struct {
		name, method, params string
		install              func(c *acptest.Client)
		want                 string
	}{
		{
			name: "permission", method: "session/request_permission",
			params: `{"sessionId":"s1","toolCall":{"toolCallId":"c1"},"options":[{"optionId":"allow-once","name":"Allow","kind":"allow_once"}]}`,
			install: func(c *acptest.Client) {
				c.HandlePermission(func(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
					return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: req.Options[0].OptionId}}}
				})
			},
			want: `{"jsonrpc":"2.0","id":1,"result":{"outcome":{"optionId":"allow-once","outcome":"selected"}}}`,
		},
		{
			name: "raw garbage", method: "fs/read_text_file", params: `{"sessionId":"s1","path":"/a"}`,
			install: func(c *acptest.Client) {
				c.Handle("fs/read_text_file", func(context.Context, json.RawMessage) (any, error) { return json.RawMessage(`[1,2]`), nil })
			},
			want: `{"jsonrpc":"2.0","id":1,"result":[1,2]}`,
		},
		{
			name: "no handler", method: "fs/write_text_file", params: `{"sessionId":"s1","path":"/a","content":"x"}`,
			install: func(*acptest.Client) {},
			want:    `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: \"fs/write_text_file\""}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make(chan string, 1)
			ready := make(chan struct{})
			serve := func(ctx context.Context, r io.Reader, w io.Writer) error {
				<-ready
				if _, err := io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"`+tt.method+`","params":`+tt.params+"}\n"); err != nil {
					return err
				}
				sc := bufio.NewScanner(r)
				if sc.Scan() {
					got <- sc.Text()
				}
				_, _ = io.Copy(io.Discard, r)
				return nil
			}
			c := acptest.Connect(t, serve, acptest.WithSchema(mustSchema(t)))
			tt.install(c)
			close(ready)
			select {
			case line := <-got:
				if line != tt.want {
					t.Errorf("answer\n got %s\nwant %s", line, tt.want)
				}
			case <-time.After(hangGuard):
				t.Fatal("no answer")
			}
		})
	}
}

// initThenScripted is scripted, except that an initialize request gets a
// minimal answer and no extra lines.
func initThenScripted(extra []string, reply string) acptest.ServeFunc {
	return func(ctx context.Context, r io.Reader, w io.Writer) error {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil || req.ID == nil {
				continue
			}
			lines := append(extra[:len(extra):len(extra)], strings.ReplaceAll(reply, "ID", string(req.ID)))
			if req.Method == "initialize" {
				lines = []string{`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"protocolVersion":1}}`}
			}
			for _, line := range lines {
				if _, err := io.WriteString(w, line+"\n"); err != nil {
					return err
				}
			}
		}
		return sc.Err()
	}
}

// An unstable update is valid against the unstable schema, and only for
// a client that advertised the capability it needs; a malformed one is
// a violation either way.
func TestClientChecksUnstableFeaturesAgainstCapabilities(t *testing.T) {
	const (
		endTurn    = `{"jsonrpc":"2.0","id":ID,"result":{"stopReason":"end_turn"}}`
		planUpdate = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":"# Plan"}}}}`
		badPlan    = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p"}}}}`
		removed    = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"plan_removed","planId":"p"}}}`
		withPlan   = `{"protocolVersion":1,"clientCapabilities":{"plan":{}}}`
		noPlan     = `{"protocolVersion":1,"clientCapabilities":{"plan":null}}`
	)
	tests := []struct {
		name, init string
		raw        bool // initialize sent with SendRaw
		extra      string
		wantIn     string // "": no violation expected
	}{
		{"plan_update to a client with plan", withPlan, false, planUpdate, ""},
		{"plan_removed to a client with plan, initialized raw", withPlan, true, removed, ""},
		{"plan_update to a client without plan", noPlan, false, planUpdate, "clientCapabilities.plan"},
		{"plan_removed to a client never initialized", "", false, removed, "clientCapabilities.plan"},
		{"a malformed plan_update", withPlan, false, badPlan, "SessionNotification"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			c := acptest.Connect(rec, initThenScripted([]string{tt.extra}, endTurn), acptest.WithSchema(mustSchema(t)))
			ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
			defer cancel()
			switch {
			case tt.init != "" && tt.raw:
				if err := c.SendRaw(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":` + tt.init + `}`); err != nil {
					t.Fatal(err)
				}
				if _, err := c.WaitFrame(ctx, func(f acptest.Frame) bool { return f.IsResponse() }); err != nil {
					t.Fatal(err)
				}
			case tt.init != "":
				if err := c.Call(ctx, "initialize", json.RawMessage(tt.init), nil); err != nil {
					t.Fatal(err)
				}
			}
			_ = c.Call(ctx, "session/prompt", acpsdk.PromptRequest{SessionId: "s1", Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock("hi")}}, nil)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			requireReported(t, rec, tt.wantIn)
		})
	}
}

// requireReported fails t unless rec reported a violation mentioning
// wantIn, or, when wantIn is "", none.
func requireReported(t *testing.T, rec *recorder, wantIn string) {
	t.Helper()
	got := rec.reported()
	if wantIn == "" {
		if len(got) != 0 {
			t.Fatalf("violations reported for a good exchange: %q", got)
		}
		return
	}
	if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), wantIn) {
		t.Fatalf("reported %q, want a violation mentioning %q", got, wantIn)
	}
}
