package acp

import (
	"log/slog"
	"time"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// Options configures Serve. The zero value is ready to use.
type Options struct {
	// Logger receives every diagnostic; nothing but frames is ever
	// written to the protocol stream. Nil discards logs.
	Logger *slog.Logger
	// MaxLineBytes caps one frame; longer lines are answered -32600 and
	// skipped. Zero or negative means DefaultMaxLineBytes (32 MiB).
	MaxLineBytes int
	// ShutdownGrace bounds how long Serve, once it is stopping, waits on
	// the client's side: the answers still owed get this long to be
	// produced and written, and then every write still under way or to
	// come is abandoned (a client that stopped reading cannot hold the
	// shutdown). Zero or negative means DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// Redactor, when set, hides secrets (the model keys, the secret
	// values of the environment) in every frame written: notifications,
	// requests and answers alike, so no session/update, permission
	// request or error message shows one. The one exception is a
	// fs/write_text_file request, whose content is the file the editor
	// writes and must arrive byte for byte.
	Redactor *secrets.Redactor
}

// DefaultShutdownGrace is the ShutdownGrace of the zero Options. A client
// that reads its stdin takes a pending answer in far less.
const DefaultShutdownGrace = time.Second

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	return o
}
