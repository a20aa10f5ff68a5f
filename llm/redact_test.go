package llm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/llm"
)

func TestRedactorString(t *testing.T) {
	red := llm.NewRedactor(localKey, "x", " ")
	tests := []struct{ in, want string }{
		{"Authorization: Bearer " + secretKey, "Authorization: Bearer [REDACTED]"},
		{"authorization: bearer abc.DEF-123_~+/==, next", "authorization: bearer [REDACTED], next"},
		{"key " + secretKey + " was sent", "key [REDACTED] was sent"},
		{"proj key sk-proj-AbCdEf0123456789_xyz", "proj key [REDACTED]"},
		{"the key " + localKey + " in a query: ?key=" + localKey, "the key [REDACTED] in a query: ?key=[REDACTED]"},
		// Not secrets: short sk- words, words ending in sk-, a one-letter key.
		{"risk-assessment-framework-2026 and sk-learn", "risk-assessment-framework-2026 and sk-learn"},
		{"the bearer of bad news", "the bearer of bad news"},
		{"x marks the spot", "x marks the spot"},
		{"no secret here", "no secret here"},
	}
	for _, tt := range tests {
		if got := red.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := (llm.Redactor{}).String("Bearer " + localKey); got != "Bearer [REDACTED]" {
		t.Errorf("zero Redactor: %q", got)
	}
	if got := (llm.Config{APIKey: localKey}).Redactor().String("echo " + localKey); got != "echo [REDACTED]" {
		t.Errorf("Config.Redactor: %q", got)
	}
}

func TestRedactorError(t *testing.T) {
	red := llm.NewRedactor(localKey)
	if red.Error(nil) != nil {
		t.Errorf("Error(nil) is not nil")
	}
	clean := errors.New("nothing to hide")
	if red.Error(clean) != clean {
		t.Errorf("a clean error was replaced")
	}
	auth := &llm.AuthError{StatusCode: 401, BaseURL: "https://h/v1?key=" + localKey, Err: context.Canceled}
	err := red.Error(fmt.Errorf("step: %w", auth))
	if strings.Contains(err.Error(), localKey) || !strings.Contains(err.Error(), "key=[REDACTED]") {
		t.Errorf("Error() = %q", err)
	}
	var ae *llm.AuthError
	if !errors.As(err, &ae) || ae != auth || !errors.Is(err, context.Canceled) {
		t.Errorf("errors.As/Is lost the chain of %v", err)
	}
	if errors.Unwrap(err) != nil {
		t.Errorf("Unwrap reaches the unredacted error")
	}
}

func TestRedactorReplaceAttr(t *testing.T) {
	red := llm.NewRedactor(localKey)
	var out bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{ReplaceAttr: red.ReplaceAttr}))
	logger.Info("sent Bearer "+localKey,
		"err", errors.New("server said "+secretKey),
		slog.Group("req", "auth", "Bearer abcdefgh"),
		"n", 3)
	got := out.String()
	for _, leak := range []string{localKey, secretKey, "abcdefgh"} {
		if strings.Contains(got, leak) {
			t.Errorf("log line leaks %q: %s", leak, got)
		}
	}
	if !strings.Contains(got, "n=3") || strings.Count(got, llm.Redacted) != 3 {
		t.Errorf("log line = %s", got)
	}
}
