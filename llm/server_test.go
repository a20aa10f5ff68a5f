package llm_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/llm"
)

// modelServer is an httptest server that answers the i-th chat request
// with the i-th handler (the last one repeats) and records every chat
// request body. GET /models lists models, when set; it is a 404 otherwise.
type modelServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	auth   []string
	models []string
	listed int
}

func newModelServer(t *testing.T, handlers ...http.HandlerFunc) *modelServer {
	t.Helper()
	ms := &modelServer{}
	ms.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/models" {
			ms.listModels(w)
			return
		}
		body, _ := io.ReadAll(r.Body)
		ms.mu.Lock()
		i := len(ms.bodies)
		ms.bodies = append(ms.bodies, string(body))
		ms.auth = append(ms.auth, r.Header.Get("Authorization"))
		ms.mu.Unlock()
		if r.URL.Path != "/chat/completions" {
			http.Error(w, "wrong path "+r.URL.Path, http.StatusTeapot)
			return
		}
		handlers[min(i, len(handlers)-1)](w, r)
	}))
	t.Cleanup(ms.Close)
	return ms
}

// setModels makes GET /models list ids.
func (ms *modelServer) setModels(ids ...string) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.models = ids
}

// modelLists returns how many times GET /models was asked.
func (ms *modelServer) modelLists() int {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.listed
}

func (ms *modelServer) listModels(w http.ResponseWriter) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.listed++
	if ms.models == nil {
		http.Error(w, `{"error":{"message":"no such route"}}`, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{"object":"list","data":[`)
	for i, id := range ms.models {
		if i > 0 {
			fmt.Fprint(w, ",")
		}
		fmt.Fprintf(w, `{"id":%q,"object":"model","owned_by":"test"}`, id)
	}
	fmt.Fprint(w, "]}")
}

func (ms *modelServer) requests() []string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return append([]string(nil), ms.bodies...)
}

// streamChunks answers with each chunk as an SSE data event, then [DONE].
func streamChunks(chunks ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range chunks {
			fmt.Fprintf(w, "data: %s\n\n", c)
			w.(http.Flusher).Flush()
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}
}

// fail answers with status, an OpenAI-style error body and extra headers.
func fail(status int, msg string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"error","code":null,"param":null}}`, msg)
	}
}

// chunk builds a chat.completion.chunk with the given choice delta JSON and
// finish reason ("" for null).
func chunk(delta, finish string) string {
	fr := "null"
	if finish != "" {
		fr = fmt.Sprintf("%q", finish)
	}
	return fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":%s,"finish_reason":%s}]}`, delta, fr)
}

func usageChunk(usage string) string {
	return fmt.Sprintf(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":%s}`, usage)
}

// fakeSleeper records requested waits and returns at once.
type fakeSleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleeper) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func (f *fakeSleeper) Waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// testConfig points a client at ms with a fake sleeper and no jitter.
func testConfig(ms *modelServer, sleeper *fakeSleeper) llm.Config {
	return llm.Config{
		BaseURL:    ms.URL,
		APIKey:     "sk-test",
		Model:      "test-model",
		HTTPClient: ms.Client(),
		Retry: llm.RetryPolicy{
			Sleep:  sleeper.Sleep,
			Jitter: func() float64 { return 0 },
		},
	}
}

// collect runs one step and returns its events and response.
func collect(t *testing.T, ctx context.Context, p llm.Provider, req llm.Request) ([]llm.Event, llm.Response, error) {
	t.Helper()
	s, err := p.Stream(ctx, req)
	if err != nil {
		return nil, llm.Response{}, err
	}
	var evs []llm.Event
	resp, err := llm.Collect(s, func(ev llm.Event) error {
		evs = append(evs, ev)
		return nil
	})
	return evs, resp, err
}

func userRequest(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{llm.UserMessage(text)}}
}

func eventsOfType[T llm.Event](evs []llm.Event) []T {
	var out []T
	for _, ev := range evs {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func joinText(evs []llm.Event) string {
	var b strings.Builder
	for _, d := range eventsOfType[llm.TextDelta](evs) {
		b.WriteString(d.Text)
	}
	return b.String()
}

// hangGuard bounds a wait for something that must happen; it only turns a
// hang into a failure and never decides a result.
const hangGuard = 2 * time.Minute

// nextWithin returns s.Next(), failing the test if Next has not returned
// within hangGuard.
func nextWithin(t *testing.T, s *llm.Stream) bool {
	t.Helper()
	next := make(chan bool, 1)
	go func() { next <- s.Next() }()
	select {
	case ok := <-next:
		return ok
	case <-time.After(hangGuard):
		t.Fatalf("Next did not return within %v", hangGuard)
		return false
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
