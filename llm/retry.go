package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"
)

// RetryPolicy bounds the retries of failed model requests. A request is
// retried only when it failed with 408, 429, a 5xx status, a network timeout
// or a reset connection, and only before the attempt produced any content.
// The zero value means the defaults documented on each field.
type RetryPolicy struct {
	// MaxAttempts is the total number of attempts, first included; default
	// 4. 1 disables retries.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry; it doubles for each
	// later one. Default 500ms.
	BaseDelay time.Duration
	// MaxDelay caps the computed backoff. Default 8s.
	MaxDelay time.Duration
	// MaxRetryAfter is the longest server-directed wait (Retry-After) that is
	// honoured; a longer one ends the retries with the server's error.
	// Default 60s.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx is done, returning ctx's error then. Tests
	// inject a fake; nil means a real timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock used to read an HTTP-date Retry-After; nil means
	// time.Now.
	Now func() time.Time
	// Jitter returns a number in [0, 1) that spreads the backoff; nil means
	// math/rand/v2.
	Jitter func() float64
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 500 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 8 * time.Second
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = 60 * time.Second
	}
	if p.Sleep == nil {
		p.Sleep = sleepContext
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Jitter == nil {
		p.Jitter = rand.Float64
	}
	return p
}

// backoff returns the wait before retry number n (1 for the first retry):
// BaseDelay·2^(n-1) capped at MaxDelay, of which the upper half is jittered.
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	half := d / 2
	return half + time.Duration(p.Jitter()*float64(d-half))
}

// retryAfter reads a server-directed wait from retry-after-ms or
// Retry-After (delay seconds or an HTTP date).
func (p RetryPolicy) retryAfter(h http.Header) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		return max(0, time.Duration(secs*float64(time.Second))), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(p.Now())), true
	}
	return 0, false
}

// retryDecision is what to do about a failed attempt.
type retryDecision struct {
	retry  bool
	wait   time.Duration
	reason string
}

// decide classifies err, the failure of attempt number attempt.
func (p RetryPolicy) decide(err error, attempt int) retryDecision {
	if attempt >= p.MaxAttempts {
		return retryDecision{}
	}
	reason, ok := transientReason(err)
	if !ok {
		return retryDecision{}
	}
	var apiErr *openai.Error
	if errors.As(err, &apiErr) && apiErr.Response != nil {
		if wait, ok := p.retryAfter(apiErr.Response.Header); ok {
			if wait > p.MaxRetryAfter {
				return retryDecision{}
			}
			return retryDecision{retry: true, wait: wait, reason: reason}
		}
	}
	return retryDecision{retry: true, wait: p.backoff(attempt), reason: reason}
}

// transientReason reports whether err is worth retrying, with a short reason.
func transientReason(err error) (string, bool) {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		code := apiErr.StatusCode
		if code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500 {
			return fmt.Sprintf("%d %s", code, http.StatusText(code)), true
		}
		return "", false
	}
	var netErr net.Error
	switch {
	case errors.As(err, &netErr) && netErr.Timeout():
		return "network timeout", true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection reset", true
	}
	return "", false
}

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
