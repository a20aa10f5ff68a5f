package workspace

import (
	"context"
	"io/fs"
)

// FileSystem reads and writes whole files by absolute path.
type FileSystem interface {
	// ReadFile returns the file's bytes. A missing file is an error for
	// which errors.Is(err, fs.ErrNotExist) holds.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// WriteFile replaces the file's content with data, creating missing
	// parent directories. A reader never sees a half-written file, and an
	// existing file keeps its mode.
	WriteFile(ctx context.Context, path string, data []byte) error
	// Stat describes the file (following symbolic links).
	Stat(ctx context.Context, path string) (fs.FileInfo, error)
}
