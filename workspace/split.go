package workspace

import (
	"context"
	"io/fs"
	"path/filepath"
)

// Split is a FileSystem that sends paths inside roots to Inside and every
// other path to Outside: an editor's file access for the workspace, the
// disk for the rest.
type Split struct {
	Inside  FileSystem
	Outside FileSystem
	Roots   []string
}

// pick returns the file system that owns path: Inside when path leads into
// a root once its symbolic links are followed (dangling ones too, so a link
// to a file outside that does not exist yet is Outside's), Outside for
// everything else, an invalid path and one whose links loop included (the
// disk refuses those).
func (s Split) pick(path string) FileSystem {
	if ValidatePath(path) != nil {
		return s.Outside
	}
	real, ok := realPath(filepath.Clean(path))
	if !ok {
		return s.Outside
	}
	for _, root := range s.Roots {
		if Under(resolveRoot(filepath.Clean(root)), real) {
			return s.Inside
		}
	}
	return s.Outside
}

// ReadFile reads through the file system that owns path.
func (s Split) ReadFile(ctx context.Context, path string) ([]byte, error) {
	return s.pick(path).ReadFile(ctx, path)
}

// WriteFile writes through the file system that owns path.
func (s Split) WriteFile(ctx context.Context, path string, data []byte) error {
	return s.pick(path).WriteFile(ctx, path, data)
}

// Stat describes path through the file system that owns it.
func (s Split) Stat(ctx context.Context, path string) (fs.FileInfo, error) {
	return s.pick(path).Stat(ctx, path)
}
