package search

import (
	"os/exec"
	"runtime"
)

// Options tune the search tools; the zero value is the defaults.
type Options struct {
	// Ripgrep is the ripgrep binary grep runs for directories. "" looks
	// "rg" up on PATH when the tools are built; when it is not there,
	// or NoRipgrep is set, grep uses its built-in search, which gives the
	// same results.
	Ripgrep string
	// NoRipgrep makes grep always use the built-in search.
	NoRipgrep bool
	// MaxMatches caps the matching lines grep shows (default 200).
	MaxMatches int
	// MaxLineLength caps the bytes shown of each matching line (default
	// 500); a longer line is cut and ends in "…".
	MaxLineLength int
	// MaxFileSize: grep skips larger files when it searches a directory
	// (default 10 MiB). A file named by path is always searched.
	MaxFileSize int64
	// MaxPaths caps the paths glob shows (default 100).
	MaxPaths int
	// Workers is the number of goroutines the built-in search and glob
	// walk with (default GOMAXPROCS).
	Workers int

	// onVisit, when set, is called with each file the built-in search
	// and glob are about to visit, on the goroutine visiting it. Only
	// tests set it (export_test.go), to hold a walk at a known point.
	onVisit func(path string)
}

// The defaults of Options.
const (
	DefaultMaxMatches    = 200
	DefaultMaxLineLength = 500
	DefaultMaxFileSize   = 10 << 20
	DefaultMaxPaths      = 100
)

// withDefaults fills the unset options and finds ripgrep.
func (o Options) withDefaults() Options {
	if o.MaxMatches <= 0 {
		o.MaxMatches = DefaultMaxMatches
	}
	if o.MaxLineLength <= 0 {
		o.MaxLineLength = DefaultMaxLineLength
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if o.MaxPaths <= 0 {
		o.MaxPaths = DefaultMaxPaths
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case o.NoRipgrep:
		o.Ripgrep = ""
	case o.Ripgrep == "":
		if path, err := exec.LookPath("rg"); err == nil {
			o.Ripgrep = path
		}
	}
	return o
}
