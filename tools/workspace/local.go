package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// newFileMode is the mode of a file Local creates (before the umask).
const newFileMode fs.FileMode = 0o644

// Local is the FileSystem of the local disk. Writes are atomic: the data
// goes to a temporary file in the same directory, is synced, gets the
// mode of the file it replaces, and is renamed over it.
type Local struct{}

// ReadFile reads the file at path.
func (Local) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// Stat describes the file at path.
func (Local) Stat(ctx context.Context, path string) (fs.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.Stat(path)
}

// WriteFile atomically replaces path with data. A symbolic link at path is
// followed, so the link stays and its target changes.
func (Local) WriteFile(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	mode := newFileMode
	info, err := os.Stat(target)
	switch {
	case err == nil && info.IsDir():
		return fmt.Errorf("write %s: is a directory", path)
	case err == nil:
		mode = info.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	default:
		return fmt.Errorf("write %s: %w", path, err)
	}
	return writeAtomic(target, data, mode)
}

// writeAtomic writes data to a temporary file beside target and renames it
// over target, so target is either wholly old or wholly new.
func writeAtomic(target string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".dsh-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	return nil
}
