//go:build darwin

package workspace

// hostRule is macOS': "/" paths whose names compare without case, as
// APFS and HFS+ volumes ignore case by default.
func hostRule() pathRule { return pathRule{fold: true} }
