package llm_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

// secretKey looks like a DeepSeek key; localKey looks like nothing in
// particular, so only knowing the configured key can hide it.
const (
	secretKey = "sk-3f9a1c0d5e7b4a2c9d8e6f1a0b3c5d7e"
	localKey  = "local-key-Zq8wX2vN"
)

// echoAuth answers status with a body that repeats the request's
// Authorization header and the bare key, the way some servers and
// proxies echo what they were sent. JSON bodies carry it in the error
// message; a plain body carries it as text.
func echoAuth(status int, plain bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		key := strings.TrimPrefix(auth, "Bearer ")
		msg := fmt.Sprintf("bad credentials: Authorization: %s (key %s)", auth, key)
		if plain {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(status)
			fmt.Fprint(w, msg)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error","code":null,"param":null}}`, msg)
	}
}

// echoAuthInStream answers 200 with an error event inside the stream that
// echoes the Authorization header.
func echoAuthInStream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprintf(w, "data: {\"error\":{\"message\":%q,\"type\":\"server_error\"}}\n\n", "upstream rejected "+r.Header.Get("Authorization"))
}

// TestErrorsNeverCarryTheKey: whatever the server echoes, no error the
// llm package returns — the final error, any error in its chain, the
// error of a retry notice — shows the configured key.
func TestErrorsNeverCarryTheKey(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		handler http.HandlerFunc
	}{
		{"401 JSON body", secretKey, echoAuth(401, false)},
		{"400 JSON body", secretKey, echoAuth(400, false)},
		{"500 JSON body, retried", secretKey, echoAuth(500, false)},
		{"401 plain body", secretKey, echoAuth(401, true)},
		{"500 plain body", secretKey, echoAuth(500, true)},
		{"error event in the stream", secretKey, echoAuthInStream},
		{"a key of no known shape", localKey, echoAuth(400, false)},
		{"a key of no known shape, retried", localKey, echoAuth(503, false)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := newModelServer(t, tt.handler)
			cfg := testConfig(ms, &fakeSleeper{})
			cfg.APIKey = tt.key
			evs, _, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi"))
			if err == nil {
				t.Fatal("no error")
			}
			texts := chainTexts(err)
			for _, n := range eventsOfType[llm.RetryNotice](evs) {
				texts = append(texts, chainTexts(n.Err)...)
			}
			redacted := false
			for _, text := range texts {
				if strings.Contains(text, tt.key) {
					t.Errorf("an error shows the key: %q", text)
				}
				redacted = redacted || strings.Contains(text, llm.Redacted)
			}
			if !redacted && !strings.Contains(tt.name, "plain") {
				t.Errorf("no error says something was redacted: %q", texts)
			}
		})
	}
}

// chainTexts returns the text of err and of every error it wraps.
func chainTexts(err error) []string {
	var out []string
	for err != nil {
		out = append(out, err.Error(), fmt.Sprintf("%+v", err))
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				out = append(out, chainTexts(e)...)
			}
			return out
		default:
			err = errors.Unwrap(err)
		}
	}
	return out
}

// TestConnectionErrorsHideAKeyInTheBaseURL: a key some servers take in
// the URL's query does not show in the error naming the server.
func TestConnectionErrorsHideAKeyInTheBaseURL(t *testing.T) {
	ms := newModelServer(t, echoAuth(500, false))
	cfg := testConfig(ms, &fakeSleeper{})
	cfg.APIKey = localKey
	cfg.BaseURL = ms.URL + "/v1?key=" + localKey
	ms.Close() // nothing listens there any more
	evs, _, err := collect(t, t.Context(), llm.NewOpenAI(cfg), userRequest("hi"))
	var ce *llm.ConnectionError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want *ConnectionError", err)
	}
	texts := chainTexts(err)
	for _, n := range eventsOfType[llm.RetryNotice](evs) {
		texts = append(texts, chainTexts(n.Err)...)
	}
	for _, text := range texts {
		if strings.Contains(text, localKey) {
			t.Errorf("an error shows the key: %q", text)
		}
	}
}
