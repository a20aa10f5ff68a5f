package sandbox

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// A grant is one path to grant access below.
type grant struct {
	path string
	// dir is set for a directory (a file cannot take directory rights).
	dir bool
}

// cover returns the grants that, each with everything below it, cover
// root and everything below it except the excluded paths and everything
// below them. Landlock only adds rights, and a right granted on a
// directory holds in all of it; so where root holds an excluded path,
// root itself is not granted, and instead each entry of it is, down the
// path to each excluded one: the ancestors of an excluded path, root
// included, are returned in ancestors (they may take only rights that are
// harmless below them, such as listing). Symbolic links among the entries
// are not granted (a link could name the excluded path; what it points
// to is granted where it lies). A directory that cannot be listed is
// skipped. list reads a directory (os.ReadDir).
func cover(root string, excluded []string, list func(string) ([]fs.DirEntry, error)) (grants []grant, ancestors []string) {
	root = filepath.Clean(root)
	var inside []string
	for _, e := range excluded {
		e = filepath.Clean(e)
		if below(root, e) {
			return nil, nil // root is itself excluded
		}
		if below(e, root) {
			inside = append(inside, e)
		}
	}
	if len(inside) == 0 {
		return []grant{{path: root, dir: true}}, nil
	}
	var walk func(dir string)
	walk = func(dir string) {
		ancestors = append(ancestors, dir)
		entries, err := list(dir)
		if err != nil {
			return
		}
		for _, entry := range entries {
			child := filepath.Join(dir, entry.Name())
			switch {
			case slices.Contains(inside, child):
			case slices.ContainsFunc(inside, func(e string) bool { return below(e, child) }):
				walk(child)
			case entry.Type()&fs.ModeSymlink != 0:
			default:
				grants = append(grants, grant{path: child, dir: entry.IsDir()})
			}
		}
	}
	walk(root)
	return grants, ancestors
}

// below reports whether path is dir or lies below it (both clean and
// absolute).
func below(path, dir string) bool {
	if path == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(path, dir+"/")
}

// resolveAll returns the paths with their symbolic links followed; a
// path that does not exist is kept as it is written (nothing can be read
// there; a rule on it is skipped).
func resolveAll(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}
