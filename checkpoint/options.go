package checkpoint

import (
	"fmt"
	"log/slog"
)

// Defaults of the Options left zero.
const (
	// DefaultMaxFileSize is the size above which a file is left out of a
	// checkpoint.
	DefaultMaxFileSize int64 = 10 << 20
	// DefaultMaxFiles is the most files a checkpoint holds.
	DefaultMaxFiles = 200_000
	// DefaultKeep is how many turns a stack keeps.
	DefaultKeep = 50
	// DefaultStack names the stack of Options without one.
	DefaultStack = "default"
)

// Options configures Open. Root and StateDir are required.
type Options struct {
	// Root is the workspace root: an absolute path to a directory. Its
	// symbolic links are resolved, so every path to one directory shares
	// one shadow repository.
	Root string
	// StateDir is dsh-acp's state directory; checkpoints live in its
	// checkpoints subdirectory.
	StateDir string
	// Stack names the undo stack Push and Undo work on, usually the
	// session id: letters, digits, '-' and '_' (DefaultStack when empty).
	Stack string
	// MaxFileSize is the size in bytes above which a file is left out of
	// checkpoints (DefaultMaxFileSize when zero or less).
	MaxFileSize int64
	// MaxFiles bounds the files of a checkpoint (DefaultMaxFiles when zero
	// or less): past it, taking one fails with a *TooManyFilesError.
	MaxFiles int
	// Keep is how many turns the stack keeps (each its start and end
	// checkpoints); Push drops the oldest beyond it (DefaultKeep when
	// zero or less).
	Keep int
	// Git is the git binary: a path, or a name looked up on PATH ("git"
	// when empty).
	Git string
	// Logger receives warnings and a debug line per checkpoint. Nothing is
	// logged when nil.
	Logger *slog.Logger
}

// validStack reports whether name may name a stack: 1 to 128 letters,
// digits, '-' and '_', so that it is safe in a ref name.
func validStack(name string) bool {
	if name == "" || len(name) > 128 {
		return false
	}
	for _, c := range []byte(name) {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// withDefaults returns opts with every zero field set to its default, or
// an error for a stack name that is not one.
func (opts Options) withDefaults() (Options, error) {
	if opts.Stack == "" {
		opts.Stack = DefaultStack
	}
	if !validStack(opts.Stack) {
		return opts, fmt.Errorf("checkpoint: stack name %q: use letters, digits, '-' and '_' only", opts.Stack)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.Git == "" {
		opts.Git = "git"
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return opts, nil
}
