package acp

import "log/slog"

// Options configures Serve. The zero value is ready to use.
type Options struct {
	// Logger receives every diagnostic; nothing but frames is ever
	// written to the protocol stream. Nil discards logs.
	Logger *slog.Logger
	// MaxLineBytes caps one frame; longer lines are answered -32600 and
	// skipped. Zero or negative means DefaultMaxLineBytes (32 MiB).
	MaxLineBytes int
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	return o
}
