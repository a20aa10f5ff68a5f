package workspace

import (
	"errors"
	"fmt"
	"path/filepath"
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
		if err := ValidatePath(root); err != nil {
			return nil, fmt.Errorf("workspace: %w", err)
		}
		clean := filepath.Clean(root)
		if i == 0 {
			w.cwd = clean
		}
		w.roots = append(w.roots, resolveRoot(clean))
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
// against the working directory (on Windows, a path rooted without a
// drive, `\x`, on the working directory's drive), and naming the file the kernel would
// open: a ".." leaves where the names before it lead once their symbolic
// links are followed (see physical), never what the text suggests, so
// "shared/../x" with shared a link to a directory outside is the x beside
// that directory. Other links are kept as written. A path that
// ValidatePath refuses, or whose links before a ".." loop, is made
// absolute but not cleaned, so it stays invalid for every system call
// (cleaning could drop a NUL byte and name another file); callers about
// to use a path should call Abs, which refuses it with a clear error.
func (w *Workspace) Resolve(path string) string {
	joined := hostRule().join(w.cwd, path)
	if ValidatePath(path) != nil {
		return joined
	}
	if clean, ok := physical(joined); ok {
		return clean
	}
	return joined
}

// Abs is Resolve for a path a tool is about to use: it returns the clean
// absolute path, or an error matching ErrInvalidPath (from ValidatePath)
// when no file can have that path.
func (w *Workspace) Abs(path string) (string, error) {
	if err := ValidatePath(path); err != nil {
		return "", err
	}
	return w.Resolve(path), nil
}

// Target returns where path (resolved as by Resolve) leads once every
// symbolic link in it is followed, dangling links included: for a file
// that does not exist yet, the file that writing path would create. ok is
// false when path is invalid or its links loop, so it leads nowhere.
func (w *Workspace) Target(path string) (target string, ok bool) {
	if ValidatePath(path) != nil {
		return "", false
	}
	return realPath(w.Resolve(path))
}

// Contains reports whether path (resolved as by Resolve) lies inside a
// workspace root once symbolic links are followed (see Target), so a link
// inside the workspace that points outside it does not count as inside,
// even when its target does not exist yet. An invalid path, or one whose
// links loop, is not inside; nor is anything under /proc (another
// process's environment, memory and command line), whatever the roots.
func (w *Workspace) Contains(path string) bool {
	real, ok := w.Target(path)
	if !ok || procPath(real) {
		return false
	}
	for _, root := range w.roots {
		if Under(root, real) {
			return true
		}
	}
	return false
}

// Display returns path relative to the working directory when it lies
// below it, and the clean absolute path otherwise.
func (w *Workspace) Display(path string) string {
	abs := w.Resolve(path)
	if ValidatePath(path) != nil {
		return abs
	}
	if rel, ok := Relative(w.cwd, abs); ok {
		return rel
	}
	return abs
}

// procPath reports whether real (links followed) lies under /proc, where
// every process's environment, memory and command line can be read.
func procPath(real string) bool {
	return Under("/proc", filepath.ToSlash(real))
}

// resolveRoot is a root with its symbolic links followed; a root whose
// links loop is kept as written.
func resolveRoot(root string) string {
	if real, ok := realPath(root); ok {
		return real
	}
	return root
}
