package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Workspace is a session's working directory, its roots (the working
// directory first, then any additional directories), and the FileSystem
// its file tools use. It is immutable and safe for concurrent use.
type Workspace struct {
	cwd   string
	roots []string
	files FileSystem
}

// New returns the workspace rooted at cwd plus extraRoots. Every path must
// be absolute; roots are cleaned and their symbolic links resolved.
func New(cwd string, extraRoots []string, files FileSystem) (*Workspace, error) {
	if files == nil {
		return nil, errors.New("workspace: a FileSystem is required")
	}
	w := &Workspace{files: files}
	for i, root := range append([]string{cwd}, extraRoots...) {
		if !filepath.IsAbs(root) {
			return nil, fmt.Errorf("workspace: %q is not an absolute path", root)
		}
		clean := filepath.Clean(root)
		if i == 0 {
			w.cwd = clean
		}
		w.roots = append(w.roots, resolveExisting(clean))
	}
	return w, nil
}

// Cwd returns the working directory paths are resolved against.
func (w *Workspace) Cwd() string { return w.cwd }

// Roots returns a copy of the workspace roots, symbolic links resolved.
func (w *Workspace) Roots() []string { return append([]string(nil), w.roots...) }

// Files returns the FileSystem file tools use.
func (w *Workspace) Files() FileSystem { return w.files }

// Resolve returns path as a clean absolute path, taking a relative path
// against the working directory.
func (w *Workspace) Resolve(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(w.cwd, path)
}

// Contains reports whether path (resolved as by Resolve) lies inside a
// workspace root once symbolic links are followed, so a link inside the
// workspace that points outside it does not count as inside.
func (w *Workspace) Contains(path string) bool {
	real := resolveExisting(w.Resolve(path))
	for _, root := range w.roots {
		if within(root, real) {
			return true
		}
	}
	return false
}

// Display returns path relative to the working directory when it lies
// below it, and the clean absolute path otherwise.
func (w *Workspace) Display(path string) string {
	abs := w.Resolve(path)
	if rel, ok := relativeInside(w.cwd, abs); ok {
		return rel
	}
	return abs
}

// within reports whether path is root or below it.
func within(root, path string) bool {
	_, ok := relativeInside(root, path)
	return ok
}

func relativeInside(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// resolveExisting follows symbolic links in the longest existing prefix of
// path and re-attaches the rest, so a path to a file that does not exist
// yet resolves through its existing parent directories.
func resolveExisting(path string) string {
	var rest []string
	cur := path
	for {
		if resolved, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{resolved}, rest...)...)
		}
		if _, err := os.Lstat(cur); err == nil {
			// It exists but cannot be resolved (a dangling or looping
			// link): keep it as it is.
			return filepath.Join(append([]string{cur}, rest...)...)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return path
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}
