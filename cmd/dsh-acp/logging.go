package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/dsh-acp/dsh-acp/llm"
)

// openLogger returns the logger: to the log file when one is set, else to
// stderr. Nothing is ever logged to stdout.
func openLogger(cfg config, stderr io.Writer) (*slog.Logger, func(), error) {
	w, closeLog := stderr, func() {}
	if cfg.logFile != "" {
		f, err := os.OpenFile(cfg.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		w, closeLog = f, func() { f.Close() }
	}
	// No secret the process holds, and no bearer token a model server
	// echoes, reaches a log line.
	redact := llm.NewRedactor(heldSecrets(cfg)...)
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: cfg.logLevel, ReplaceAttr: redact.ReplaceAttr})), closeLog, nil
}
