package bridge

import (
	"path/filepath"
	"strings"

	"github.com/dsh-acp/dsh-acp/workspace"
)

// displayTitle shows a file card's title relative to the session's working
// directory: every occurrence of rawPath in title becomes the path relative
// to cwd, when rawPath is absolute and lies below cwd (segment-aware, so
// "..cache/x" is below). Otherwise the title is unchanged.
func displayTitle(title, rawPath, cwd string) string {
	if rawPath == "" || cwd == "" || !filepath.IsAbs(rawPath) || !filepath.IsAbs(cwd) {
		return title
	}
	rel, ok := workspace.Relative(cwd, rawPath)
	if !ok || rel == "." {
		return title
	}
	return strings.ReplaceAll(title, rawPath, rel)
}

// absolute resolves path against cwd; an absolute path, or any path when
// cwd is unknown, is returned cleaned.
func absolute(path, cwd string) string {
	if path == "" || filepath.IsAbs(path) || cwd == "" {
		if path == "" {
			return path
		}
		return filepath.Clean(path)
	}
	return filepath.Join(cwd, path)
}
