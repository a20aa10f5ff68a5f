package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// newFileMode is the mode of a file Local creates (before the umask).
const newFileMode fs.FileMode = 0o644

// Local is the FileSystem of the local disk. It reads and writes regular
// files only: anything else (a named pipe, a socket, a device, a
// directory) is refused with a *NotRegularError, and never opened in a way
// that could block. Writes are atomic: the data goes to a temporary file in
// the same directory, is synced, gets the mode of the file it replaces, and
// is renamed over it; a write also removes the temporary files that killed
// writes left in that directory (see lockedWithin for when one counts as
// left behind).
type Local struct{}

// ReadFile reads the regular file at path; its errors name path.
func (Local) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return readRegular(path)
}

// Stat describes the file at path.
func (Local) Stat(ctx context.Context, path string) (fs.FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return os.Stat(path)
}

// WriteFile atomically replaces path with data. A symbolic link at path is
// followed, even when its target does not exist yet, so the link stays and
// its target changes (or is created).
func (Local) WriteFile(ctx context.Context, path string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ValidatePath(path); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	target, ok := realPath(filepath.Clean(path))
	if !ok {
		return fmt.Errorf("write %s: its symbolic links form a loop", path)
	}
	mode := newFileMode
	info, err := os.Stat(target)
	switch {
	case err == nil && !info.Mode().IsRegular():
		return &NotRegularError{Path: path, Mode: info.Mode()}
	case err == nil:
		mode = info.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	default:
		return fmt.Errorf("write %s: %w", path, err)
	}
	removeStaleTemps(filepath.Dir(target), time.Now())
	return writeAtomic(target, data, mode)
}

// writeAtomic writes data to a temporary file beside target and renames it
// over target (replaceWith), so target is either wholly old or wholly
// new. Where there are locks, the temporary file stays locked until after
// the rename, so no other write takes it for a dead one.
func writeAtomic(target string, data []byte, mode fs.FileMode) (err error) {
	tmp, err := createTemp(target)
	if err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	renamed := false
	defer func() {
		closeErr := tmp.Close()
		if !renamed {
			os.Remove(tmp.Name())
		}
		if err == nil && closeErr != nil && !errors.Is(closeErr, os.ErrClosed) {
			err = fmt.Errorf("write %s: %w", target, closeErr)
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
	if err = replaceWith(tmp, target); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	renamed = true
	return nil
}
