package llm_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// A stream with chunks the client cannot fully read — a field of the wrong
// type, data that is not JSON, an "error": null, SSE comments — still
// delivers everything it can, finishes and reports usage; what was skipped
// is logged.
func TestOpenAIStreamSurvivesOddChunks(t *testing.T) {
	ms := newModelServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": OPENROUTER PROCESSING\n\n")
		for _, c := range []string{
			chunk(`{"role":"assistant","content":"one "}`, ""),
			chunk(`{"content":7,"reasoning":"why"}`, ""),
			`{"choices":[{"index":0,"delta":{"content":"cut`,
			`{"error":null,"choices":[{"index":0,"delta":{"content":"two "},"finish_reason":null}]}`,
			chunk(`{"content":"three"}`, "stop"),
			usageChunk(`{"prompt_tokens":1,"completion_tokens":3,"total_tokens":4}`),
		} {
			fmt.Fprintf(w, "data: %s\n\n", c)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	var logs syncBuffer
	cfg := testConfig(ms, &fakeSleeper{})
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	evs, resp, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi"))
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	if got := joinText(evs); got != "one two three" {
		t.Errorf("text = %q, want %q", got, "one two three")
	}
	if resp.Message.Reasoning != "why" || resp.FinishReason != llm.FinishStop || resp.Usage.TotalTokens != 4 {
		t.Errorf("response = %+v", resp)
	}
	for _, want := range []string{
		"level=DEBUG msg=\"model stream: ignored a chunk field of unexpected type\" field=choices.delta.content",
		"level=WARN msg=\"model stream: skipped a chunk that is not a JSON object\"",
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

// An error inside the stream given as a plain string fails the stream
// with that text, as an object's message does.
func TestOpenAIStreamErrorAsString(t *testing.T) {
	ms := newModelServer(t, streamChunks(`{"error":"upstream overloaded"}`))
	_, _, err := collect(t, t.Context(), llm.NewOpenAI(testConfig(ms, &fakeSleeper{})), userRequest("hi"))
	if err == nil || !strings.Contains(err.Error(), "upstream overloaded") {
		t.Fatalf("err = %v, want the server's words", err)
	}
}

// syncBuffer is a bytes.Buffer safe for the logger's and the test's use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
