package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
	"github.com/dsh-acp/dsh-acp/session"
)

// thinkingServer plays a DeepSeek thinking model on loopback: each answer
// streams reasoning first, and a request in which an earlier assistant
// message lacks its reasoning_content gets DeepSeek's 400.
type thinkingServer struct {
	*httptest.Server
	mu       sync.Mutex
	answers  []string // the SSE stream of each answer, in turn
	requests []chatBody
}

type chatBody struct {
	Messages []struct {
		Role             string            `json:"role"`
		Content          *string           `json:"content"`
		ReasoningContent *string           `json:"reasoning_content"`
		ToolCalls        []json.RawMessage `json:"tool_calls"`
	} `json:"messages"`
}

func newThinkingServer(t *testing.T, answers ...string) *thinkingServer {
	ts := &thinkingServer{answers: answers}
	ts.Server = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *thinkingServer) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body chatBody
	if err := json.Unmarshal(raw, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ts.mu.Lock()
	n := len(ts.requests)
	ts.requests = append(ts.requests, body)
	ts.mu.Unlock()
	for _, m := range body.Messages {
		if m.Role == "assistant" && (m.ReasoningContent == nil || *m.ReasoningContent == "") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"message":"The reasoning_content in the thinking mode must be passed back to the API.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`)
			return
		}
	}
	if n >= len(ts.answers) {
		http.Error(w, "script exhausted", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, ts.answers[n])
}

// reasoningSent returns, for request i, the reasoning_content of each
// assistant message and whether that message had tool calls.
func (ts *thinkingServer) reasoningSent(i int) (reasoning []string, withCalls []bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, m := range ts.requests[i].Messages {
		if m.Role == "assistant" && m.ReasoningContent != nil {
			reasoning = append(reasoning, *m.ReasoningContent)
			withCalls = append(withCalls, len(m.ToolCalls) > 0)
		}
	}
	return reasoning, withCalls
}

// sse is an SSE stream of chunks, then [DONE].
func sse(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		fmt.Fprintf(&b, "data: %s\n\n", c)
	}
	b.WriteString("data: [DONE]\n\n")
	return b.String()
}

// chunk is a chat.completion.chunk with one choice delta (JSON) and its
// finish reason ("" for none).
func chunk(delta, finish string) string {
	reason := "null"
	if finish != "" {
		reason = quote(finish)
	}
	return fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"deepseek-v4-flash","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, reason)
}

// TestReasoningGoesBackToAThinkingModel: across tool steps and turns,
// every earlier assistant message goes back to the model with its
// reasoning_content verbatim, so a DeepSeek thinking model keeps
// answering instead of refusing with 400.
func TestReasoningGoesBackToAThinkingModel(t *testing.T) {
	const (
		thinkA = "The user wants a; call work.\n"
		thinkB = "  work is done, answer.  "
		thinkC = "Second prompt: just answer."
	)
	ts := newThinkingServer(t,
		sse(
			chunk(`{"role":"assistant","content":null,"reasoning_content":`+quote(thinkA)+`}`, ""),
			chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"par","arguments":"{\"id\":\"a\"}"}}]}`, ""),
			chunk(`{}`, "tool_calls"),
		),
		sse(
			chunk(`{"reasoning_content":`+quote(thinkB)+`}`, ""),
			chunk(`{"content":"All done."}`, "stop"),
		),
		sse(
			chunk(`{"reasoning_content":`+quote(thinkC)+`}`, ""),
			chunk(`{"content":"Hello again."}`, "stop"),
		),
	)
	model := llm.NewOpenAI(llm.Config{BaseURL: ts.URL, APIKey: "sk-test", HTTPClient: ts.Client(), Retry: llm.RetryPolicy{MaxAttempts: 1}})
	h := newHarness(t, model, nil)
	h.work("par", true)
	for _, text := range []string{"do a", "hi again"} {
		if reason, err := h.prompt(context.Background(), text); err != nil || reason != session.StopEndTurn {
			t.Fatalf("prompt %q = %q, %v", text, reason, err)
		}
	}
	tests := []struct {
		request   int
		reasoning []string
		withCalls []bool
	}{
		{request: 0},
		{request: 1, reasoning: []string{thinkA}, withCalls: []bool{true}},
		{request: 2, reasoning: []string{thinkA, thinkB}, withCalls: []bool{true, false}},
	}
	for _, tt := range tests {
		reasoning, withCalls := ts.reasoningSent(tt.request)
		if !slices.Equal(reasoning, tt.reasoning) || !slices.Equal(withCalls, tt.withCalls) {
			t.Errorf("request %d sent reasoning %q (tool calls %v), want %q (%v)", tt.request, reasoning, withCalls, tt.reasoning, tt.withCalls)
		}
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
