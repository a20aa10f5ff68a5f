//go:build !windows && !darwin

package workspace

// hostRule is Linux's (and other Unix systems'): "/" paths whose names
// compare exactly.
func hostRule() pathRule { return pathRule{} }
