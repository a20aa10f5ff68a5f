package llm

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	p := RetryPolicy{Now: func() time.Time { return now }}.withDefaults()
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		ok     bool
	}{
		{"none", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"7"}}, 7 * time.Second, true},
		{"fractional seconds", http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond, true},
		{"http date", http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second, true},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"milliseconds win", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := p.retryAfter(tt.header)
			if got != tt.want || ok != tt.ok {
				t.Errorf("retryAfter = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	tests := []struct {
		name   string
		jitter float64
		n      int
		want   time.Duration
	}{
		{"first, no jitter", 0, 1, 250 * time.Millisecond},
		{"first, full jitter", 0.999999999, 1, 500 * time.Millisecond},
		{"second doubles", 0, 2, 500 * time.Millisecond},
		{"capped at MaxDelay", 0, 20, 4 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := RetryPolicy{Jitter: func() float64 { return tt.jitter }}.withDefaults()
			if got := p.backoff(tt.n); got.Round(time.Millisecond) != tt.want {
				t.Errorf("backoff(%d) = %v, want %v", tt.n, got, tt.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	p := RetryPolicy{Jitter: func() float64 { return 0 }}.withDefaults()
	status := func(code int) error {
		return &openai.Error{StatusCode: code, Response: &http.Response{StatusCode: code, Header: http.Header{}}}
	}
	tests := []struct {
		name    string
		err     error
		attempt int
		retry   bool
	}{
		{"429", status(429), 1, true},
		{"408", status(408), 1, true},
		{"503", status(503), 3, true},
		{"503 on the last attempt", status(503), 4, false},
		{"400", status(400), 1, false},
		{"401", status(401), 1, false},
		{"404", status(404), 1, false},
		{"plain error", errors.New("boom"), 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := p.decide(tt.err, tt.attempt).retry; got != tt.retry {
				t.Errorf("retry = %v, want %v", got, tt.retry)
			}
		})
	}
}
