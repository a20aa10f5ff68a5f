package main

import (
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// TestThinkingSettings covers --thinking and --reasoning-effort and their
// variables: flags win, values are case-insensitive, and a value the model
// server cannot take is refused before anything starts.
func TestThinkingSettings(t *testing.T) {
	tests := []struct {
		name         string
		args         []string
		env          map[string]string
		wantThinking string
		wantEffort   string
		wantErr      string
	}{
		{name: "unset sends nothing"},
		{name: "environment", env: map[string]string{"DSH_THINKING": "disabled", "DSH_REASONING_EFFORT": "high"}, wantThinking: "disabled", wantEffort: "high"},
		{name: "flags win", args: []string{"--thinking", "Enabled", "--reasoning-effort", "MAX"}, env: map[string]string{"DSH_THINKING": "disabled"}, wantThinking: "enabled", wantEffort: "max"},
		{name: "bad thinking", args: []string{"--thinking", "maybe"}, wantErr: `must be "enabled" or "disabled"`},
		{name: "bad effort", args: []string{"--reasoning-effort", "very high"}, wantErr: "lower-case word"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseConfig(tt.args, envOf(tt.env), io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.llm.Thinking != tt.wantThinking || cfg.llm.ReasoningEffort != tt.wantEffort {
				t.Fatalf("thinking %q effort %q, want %q %q", cfg.llm.Thinking, cfg.llm.ReasoningEffort, tt.wantThinking, tt.wantEffort)
			}
		})
	}
}

// TestLogsNeverCarryTheKey: whatever reaches the log — a message, a
// string attribute, an error — has the configured key and bearer tokens
// replaced.
func TestLogsNeverCarryTheKey(t *testing.T) {
	const key = "sk-corpus0123456789abcdef"
	cfg, err := parseConfig(nil, envOf(map[string]string{"DSH_API_KEY": key}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	logger, closeLog, err := openLogger(cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer closeLog()
	logger.Error("model said: Authorization: Bearer "+key,
		"body", `{"error":"invalid key `+key+`"}`,
		"err", errors.New("401: Bearer abcdefgh12345678 rejected"),
		slog.Group("req", "header", "Bearer "+key))
	got := out.String()
	for _, secret := range []string{key, "abcdefgh12345678"} {
		if strings.Contains(got, secret) {
			t.Errorf("the log carries %q:\n%s", secret, got)
		}
	}
	if !strings.Contains(got, "[REDACTED]") {
		t.Errorf("nothing was redacted:\n%s", got)
	}
}
