package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/llm"
)

func TestOpenAIStreamsReasoningTextToolCallsAndUsage(t *testing.T) {
	ms := newModelServer(t, streamChunks(
		chunk(`{"role":"assistant","content":null,"reasoning_content":"Let me "}`, ""),
		chunk(`{"content":null,"reasoning_content":"think."}`, ""),
		chunk(`{"content":"I'll ","reasoning_content":null}`, ""),
		chunk(`{"content":"look."}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"read","arguments":""}}]}`, ""),
		chunk(`{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"glob","arguments":"{\"pat"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"file_"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":1,"function":{"arguments":"tern\":\"*.go\"}"}}]}`, ""),
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"path\":\"a.go\"}"}}]}`, ""),
		chunk(`{}`, "tool_calls"),
		usageChunk(`{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_cache_hit_tokens":4,"prompt_cache_miss_tokens":6}`),
	))
	p := llm.NewOpenAI(testConfig(ms, &fakeSleeper{}))

	evs, resp, err := collect(t, t.Context(), p, userRequest("hi"))
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}

	wantCalls := []llm.ToolCall{
		{ID: "call_a", Name: "read", Arguments: `{"file_path":"a.go"}`},
		{ID: "call_b", Name: "glob", Arguments: `{"pattern":"*.go"}`},
	}
	want := llm.Response{
		Message: llm.Message{
			Role:      llm.RoleAssistant,
			Content:   "I'll look.",
			Reasoning: "Let me think.",
			ToolCalls: wantCalls,
		},
		FinishReason: llm.FinishToolCalls,
		Usage:        llm.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15, CachedPromptTokens: 4},
	}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("response\n got %+v\nwant %+v", resp, want)
	}

	// Deltas arrive as they stream; the completed calls come in index
	// order right before the one Finish, and usage last.
	if got := len(eventsOfType[llm.ReasoningDelta](evs)); got != 2 {
		t.Errorf("reasoning deltas = %d, want 2", got)
	}
	if got := len(eventsOfType[llm.ToolCallDelta](evs)); got != 5 {
		t.Errorf("tool call deltas = %d, want 5", got)
	}
	tail := evs[len(evs)-4:]
	wantTail := []llm.Event{
		llm.ToolCallDone{Index: 0, Call: wantCalls[0]},
		llm.ToolCallDone{Index: 1, Call: wantCalls[1]},
		llm.Finish{Reason: llm.FinishToolCalls, Raw: "tool_calls"},
		llm.UsageReport{Usage: want.Usage},
	}
	if !reflect.DeepEqual(tail, wantTail) {
		t.Errorf("last events\n got %#v\nwant %#v", tail, wantTail)
	}
	if got := len(eventsOfType[llm.Finish](evs)); got != 1 {
		t.Errorf("finish events = %d, want 1", got)
	}
}

func TestOpenAIRequestBody(t *testing.T) {
	ms := newModelServer(t, streamChunks(chunk(`{"content":"ok"}`, "stop")))
	p := llm.NewOpenAI(testConfig(ms, &fakeSleeper{}))
	params := `{"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"integer"}},"required":["file_path"]}`
	req := llm.Request{
		System: "You are dsh.",
		Messages: []llm.Message{
			llm.UserMessage("read a.go"),
			{Role: llm.RoleAssistant, Content: "Reading.", Reasoning: "need the file", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "read", Arguments: `{"file_path":"a.go"}`},
			}},
			llm.ToolResultMessage("call_1", "package a"),
		},
		Tools:     []llm.Tool{{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(params)}},
		MaxTokens: 1000,
	}
	if _, _, err := collect(t, t.Context(), p, req); err != nil {
		t.Fatalf("Collect: %v", err)
	}
	bodies := ms.requests()
	if len(bodies) != 1 {
		t.Fatalf("requests = %d, want 1", len(bodies))
	}
	if got := ms.auth[0]; got != "Bearer sk-test" {
		t.Errorf("Authorization = %q", got)
	}

	var body struct {
		Model         string `json:"model"`
		Stream        bool   `json:"stream"`
		MaxTokens     int    `json:"max_tokens"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Messages []struct {
			Role             string  `json:"role"`
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
			ToolCallID       string  `json:"tool_call_id"`
			ToolCalls        []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(bodies[0]), &body); err != nil {
		t.Fatalf("body %s: %v", bodies[0], err)
	}
	if body.Model != "test-model" || !body.Stream || !body.StreamOptions.IncludeUsage || body.MaxTokens != 1000 {
		t.Errorf("model=%q stream=%v include_usage=%v max_tokens=%d", body.Model, body.Stream, body.StreamOptions.IncludeUsage, body.MaxTokens)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if want := []string{"system", "user", "assistant", "tool"}; !reflect.DeepEqual(roles, want) {
		t.Fatalf("roles = %v, want %v", roles, want)
	}
	if c := body.Messages[0].Content; c == nil || *c != "You are dsh." {
		t.Errorf("system content = %v", c)
	}
	asst := body.Messages[2]
	if asst.Content == nil || *asst.Content != "Reading." || asst.ReasoningContent != "need the file" {
		t.Errorf("assistant content=%v reasoning=%q", asst.Content, asst.ReasoningContent)
	}
	if len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "call_1" || asst.ToolCalls[0].Type != "function" ||
		asst.ToolCalls[0].Function.Name != "read" || asst.ToolCalls[0].Function.Arguments != `{"file_path":"a.go"}` {
		t.Errorf("assistant tool_calls = %+v", asst.ToolCalls)
	}
	if tm := body.Messages[3]; tm.ToolCallID != "call_1" || tm.Content == nil || *tm.Content != "package a" {
		t.Errorf("tool message = %+v", tm)
	}
	if len(body.Tools) != 1 || body.Tools[0].Type != "function" || body.Tools[0].Function.Name != "read" ||
		body.Tools[0].Function.Description != "Read a file." {
		t.Fatalf("tools = %+v", body.Tools)
	}
	// The schema arrives verbatim, key order included.
	if got := string(body.Tools[0].Function.Parameters); got != params {
		t.Errorf("parameters\n got %s\nwant %s", got, params)
	}
}

func TestOpenAIRetries(t *testing.T) {
	ok := streamChunks(chunk(`{"content":"hello"}`, "stop"))
	tests := []struct {
		name      string
		handlers  []http.HandlerFunc
		wantWaits []time.Duration
		reason    string
		wantErr   any // nil, or a pointer to the error type expected
	}{
		{
			name:      "429 with Retry-After seconds",
			handlers:  []http.HandlerFunc{fail(429, "slow down", "Retry-After", "3"), ok},
			wantWaits: []time.Duration{3 * time.Second},
			reason:    "429 Too Many Requests",
		},
		{
			name:      "500 then success uses backoff",
			handlers:  []http.HandlerFunc{fail(500, "boom"), ok},
			wantWaits: []time.Duration{250 * time.Millisecond}, // 500ms base, zero jitter keeps half
			reason:    "500 Internal Server Error",
		},
		{
			name:      "503 twice doubles the backoff",
			handlers:  []http.HandlerFunc{fail(503, "busy"), fail(503, "busy"), ok},
			wantWaits: []time.Duration{250 * time.Millisecond, 500 * time.Millisecond},
			reason:    "503 Service Unavailable",
		},
		{
			name:      "persistent 502 gives up after 4 attempts",
			handlers:  []http.HandlerFunc{fail(502, "bad gateway")},
			wantWaits: []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second},
			reason:    "502 Bad Gateway",
			wantErr:   new(*llm.APIError),
		},
		{
			name:     "Retry-After beyond the cap is not waited for",
			handlers: []http.HandlerFunc{fail(429, "quota", "Retry-After", "3600"), ok},
			wantErr:  new(*llm.APIError),
		},
		{
			name:     "400 is not retried",
			handlers: []http.HandlerFunc{fail(400, "bad request"), ok},
			wantErr:  new(*llm.APIError),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := newModelServer(t, tt.handlers...)
			sleeper := &fakeSleeper{}
			p := llm.NewOpenAI(testConfig(ms, sleeper))
			evs, resp, err := collect(t, t.Context(), p, userRequest("hi"))

			if got := sleeper.Waits(); !reflect.DeepEqual(got, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", got, tt.wantWaits)
			}
			notices := eventsOfType[llm.RetryNotice](evs)
			if len(notices) != len(tt.wantWaits) {
				t.Fatalf("retry notices = %d, want %d", len(notices), len(tt.wantWaits))
			}
			for i, n := range notices {
				if n.Attempt != i+2 || n.MaxAttempts != 4 || n.Wait != tt.wantWaits[i] || n.Reason != tt.reason || n.Err == nil {
					t.Errorf("notice %d = %+v", i, n)
				}
			}
			if got := len(ms.requests()); got != len(tt.wantWaits)+1 {
				t.Errorf("requests = %d, want %d", got, len(tt.wantWaits)+1)
			}
			if tt.wantErr != nil {
				if err == nil || !errors.As(err, tt.wantErr) {
					t.Fatalf("err = %v, want %T", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if resp.Message.Content != "hello" || resp.FinishReason != llm.FinishStop {
				t.Errorf("response = %+v", resp)
			}
		})
	}
}

func TestOpenAIRetriesNetworkTimeout(t *testing.T) {
	release := make(chan struct{})
	ms := newModelServer(t,
		func(w http.ResponseWriter, r *http.Request) {
			select { // never answers in time
			case <-r.Context().Done():
			case <-release:
			}
		},
		streamChunks(chunk(`{"content":"late but fine"}`, "stop")),
	)
	defer close(release)
	// Only the first request goes through a transport that gives up on
	// headers after 100ms: that one's server never answers, so its timeout
	// fires however loaded the machine, and the retry is not held to a
	// deadline a slow answer could miss.
	impatient := &http.Transport{ResponseHeaderTimeout: 100 * time.Millisecond}
	defer impatient.CloseIdleConnections()
	var sent atomic.Int32
	cfg := testConfig(ms, &fakeSleeper{})
	cfg.HTTPClient = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if sent.Add(1) == 1 {
			return impatient.RoundTrip(r)
		}
		return ms.Client().Transport.RoundTrip(r)
	})}

	evs, resp, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi"))
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	notices := eventsOfType[llm.RetryNotice](evs)
	if len(notices) != 1 || notices[0].Reason != "network timeout" {
		t.Errorf("notices = %+v", notices)
	}
	if resp.Message.Content != "late but fine" {
		t.Errorf("content = %q", resp.Message.Content)
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name     string
		handler  http.HandlerFunc
		check    func(t *testing.T, err error)
		contains []string
	}{
		{
			name:    "401 is an auth error naming the key variable",
			handler: fail(401, "Authentication Fails"),
			check: func(t *testing.T, err error) {
				var ae *llm.AuthError
				if !errors.As(err, &ae) || ae.StatusCode != 401 {
					t.Errorf("err = %#v, want *AuthError 401", err)
				}
			},
			contains: []string{"rejected the API key (401)", "check DSH_API_KEY", "Authentication Fails"},
		},
		{
			name:    "403 is an auth error",
			handler: fail(403, "forbidden"),
			check: func(t *testing.T, err error) {
				var ae *llm.AuthError
				if !errors.As(err, &ae) || ae.StatusCode != 403 {
					t.Errorf("err = %#v, want *AuthError 403", err)
				}
			},
			contains: []string{"(403)", "DSH_API_KEY"},
		},
		{
			name:    "404 is a not-found error naming model and base URL",
			handler: fail(404, "Model Not Exist"),
			check: func(t *testing.T, err error) {
				var nf *llm.ModelNotFoundError
				if !errors.As(err, &nf) || nf.Model != "test-model" {
					t.Errorf("err = %#v, want *ModelNotFoundError", err)
				}
			},
			contains: []string{`model "test-model" not found at http://`, "(404, server said: Model Not Exist)", "could not be read", "check DSH_BASE_URL", "DSH_MODEL or --model"},
		},
		{
			name: "an error event inside the stream",
			handler: streamChunks(
				`{"error":{"message":"overloaded","type":"server_error"}}`,
			),
			check: func(t *testing.T, err error) {
				var ae *llm.APIError
				if !errors.As(err, &ae) {
					t.Errorf("err = %#v, want *APIError", err)
				}
			},
			contains: []string{"overloaded"},
		},
		{
			name: "stream cut before the finish reason",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte("data: " + chunk(`{"content":"partial"}`, "") + "\n\n"))
			},
			check: func(t *testing.T, err error) {
				if !errors.Is(err, llm.ErrIncompleteStream) {
					t.Errorf("err = %v, want ErrIncompleteStream", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := newModelServer(t, tt.handler)
			sleeper := &fakeSleeper{}
			_, _, err := collect(t, t.Context(), llm.NewOpenAI(testConfig(ms, sleeper)), userRequest("hi"))
			if err == nil {
				t.Fatal("no error")
			}
			tt.check(t, err)
			for _, s := range tt.contains {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
			if n := len(ms.requests()); n != 1 {
				t.Errorf("requests = %d, want 1 (no retry)", n)
			}
		})
	}
}

func TestOpenAIMissingKeyFailsBeforeAnyRequest(t *testing.T) {
	ms := newModelServer(t, streamChunks(chunk(`{"content":"x"}`, "stop")))
	cfg := testConfig(ms, &fakeSleeper{})
	cfg.APIKey = ""
	_, err := llm.NewOpenAI(cfg).Stream(t.Context(), userRequest("hi"))
	var ae *llm.AuthError
	if !errors.As(err, &ae) || ae.StatusCode != 0 {
		t.Fatalf("err = %v, want *AuthError without status", err)
	}
	if want := "no API key: set DSH_API_KEY (or DEEPSEEK_API_KEY)"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q, want prefix %q", err, want)
	}
	if n := len(ms.requests()); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestOpenAIInvalidToolParameters(t *testing.T) {
	ms := newModelServer(t, streamChunks(chunk(`{"content":"x"}`, "stop")))
	req := userRequest("hi")
	req.Tools = []llm.Tool{{Name: "bad", Parameters: json.RawMessage(`{"type":`)}}
	if _, err := llm.NewOpenAI(testConfig(ms, &fakeSleeper{})).Stream(t.Context(), req); err == nil || !strings.Contains(err.Error(), `tool "bad"`) {
		t.Fatalf("err = %v", err)
	}
	if n := len(ms.requests()); n != 0 {
		t.Errorf("requests = %d, want 0", n)
	}
}

func TestOpenAICancelMidStream(t *testing.T) {
	release := make(chan struct{})
	ms := newModelServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: " + chunk(`{"content":"first"}`, "") + "\n\n"))
		w.(http.Flusher).Flush()
		select { // block until the client goes away
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s, err := llm.NewOpenAI(testConfig(ms, &fakeSleeper{})).Stream(ctx, userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Next() {
		t.Fatalf("no first event: %v", s.Err())
	}
	if d, ok := s.Event().(llm.TextDelta); !ok || d.Text != "first" {
		t.Fatalf("first event = %#v", s.Event())
	}

	// The cancel comes a moment after Next starts, so Next is most likely
	// blocked reading the stream; it must return either way. The server
	// holds the stream open until the test ends, so only the cancel can
	// end that Next.
	timer := time.AfterFunc(50*time.Millisecond, cancel)
	defer timer.Stop()
	if nextWithin(t, s) {
		t.Fatalf("unexpected event %#v", s.Event())
	}
	if err := s.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestOpenAICancelDuringRetryWait(t *testing.T) {
	ms := newModelServer(t, fail(503, "busy"))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cfg := testConfig(ms, &fakeSleeper{})
	cfg.Retry.Sleep = nil // the real sleeper, so cancellation must cut the wait
	cfg.Retry.BaseDelay = time.Hour
	cfg.Retry.MaxDelay = time.Hour
	s, err := llm.NewOpenAI(cfg).Stream(ctx, userRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Next() {
		t.Fatalf("want a retry notice first, err %v", s.Err())
	}
	if _, ok := s.Event().(llm.RetryNotice); !ok {
		t.Fatalf("event = %#v, want RetryNotice", s.Event())
	}
	// The backoff is an hour, so only the cancel (most likely made while
	// Next waits, though it must work either way) can end this Next.
	timer := time.AfterFunc(20*time.Millisecond, cancel)
	defer timer.Stop()
	if nextWithin(t, s) {
		t.Fatalf("unexpected event %#v", s.Event())
	}
	if !errors.Is(s.Err(), context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", s.Err())
	}
}

func TestOpenAIUnreachableServer(t *testing.T) {
	ms := newModelServer(t, streamChunks(chunk(`{"content":"x"}`, "stop")))
	cfg := testConfig(ms, &fakeSleeper{})
	ms.Close() // nothing listens there any more
	_, _, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi"))
	var ce *llm.ConnectionError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConnectionError", err)
	}
	if !strings.Contains(err.Error(), "check DSH_BASE_URL") {
		t.Errorf("err = %q", err)
	}
}
