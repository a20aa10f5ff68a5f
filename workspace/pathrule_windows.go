//go:build windows

package workspace

// hostRule is Windows': drive letters and UNC shares, both separators,
// names compared without case.
func hostRule() pathRule { return pathRule{windows: true, fold: true} }
