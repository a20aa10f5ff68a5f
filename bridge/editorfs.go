package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/dsh-acp/dsh-acp/acp"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// EditorFiles reads and writes text files through the editor
// (fs/read_text_file, fs/write_text_file), so the agent sees unsaved
// buffers and the editor tracks every edit for review. Files the editor
// cannot hold as text (binary or not UTF-8) are read from and written to
// the disk instead, so nothing is mangled. A path the disk holds as
// something other than a regular file (a named pipe, whose read or write
// would block the editor) or that holds a NUL byte is never sent to the
// editor: the disk answers for it, and refuses it. Nor is a path the disk
// does not have: whether a file exists is the disk's to say. It
// implements the file-system interface the file tools use.
type EditorFiles struct {
	SessionID string
	Client    Client
	// Read and Write say which of the two the client offers.
	Read, Write bool
	// Disk serves what the editor cannot: non-text files, paths that are
	// not regular files, and stat. It must refuse, without blocking, to
	// read or write anything but a regular file; nil is the local disk
	// (workspace.Local).
	Disk FileSystem
}

// disk is what serves what the editor cannot.
func (e EditorFiles) disk() FileSystem {
	if e.Disk == nil {
		return workspace.Local{}
	}
	return e.Disk
}

// FileSystem is the file access the file tools use (the same methods as
// the tools' workspace file system).
type FileSystem interface {
	ReadFile(ctx context.Context, path string) ([]byte, error)
	WriteFile(ctx context.Context, path string, data []byte) error
	Stat(ctx context.Context, path string) (fs.FileInfo, error)
}

// ReadFile returns the editor's text of path (unsaved edits included), or
// the disk's bytes for a file that is not text. A path the disk does not
// have is answered "does not exist" (fs.ErrNotExist) without asking the
// editor: an editor could hold it only as a buffer never saved, and asking
// about every file a write creates made clients report "not found" errors
// of their own (docs/decisions.md).
func (e EditorFiles) ReadFile(ctx context.Context, path string) ([]byte, error) {
	disk, diskErr := e.disk().ReadFile(ctx, path)
	switch {
	case diskErr == nil && !isText(disk), !e.Read, errors.Is(diskErr, fs.ErrNotExist):
		return disk, diskErr
	case diskErr != nil && e.diskOnly(ctx, path):
		return nil, diskErr
	}
	resp, err := e.Client.ReadTextFile(ctx, acp.ReadTextFileRequest{SessionId: acp.SessionId(e.SessionID), Path: path})
	if err != nil {
		return nil, fmt.Errorf("read %s through the editor: %w", path, err)
	}
	return []byte(resp.Content), nil
}

// WriteFile writes text through the editor (creating parent directories
// first) and anything else to the disk.
func (e EditorFiles) WriteFile(ctx context.Context, path string, data []byte) error {
	if !e.Write || !isText(data) || e.diskOnly(ctx, path) {
		return e.disk().WriteFile(ctx, path, data)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := e.Client.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: acp.SessionId(e.SessionID), Path: path, Content: string(data)}); err != nil {
		return fmt.Errorf("write %s through the editor: %w", path, err)
	}
	return nil
}

// Stat describes path on the disk; the editor offers no stat.
func (e EditorFiles) Stat(ctx context.Context, path string) (fs.FileInfo, error) {
	return e.disk().Stat(ctx, path)
}

// diskOnly reports a path the editor must not be asked about: one the
// disk holds as something other than a regular file, or one with a NUL
// byte. The disk refuses both.
func (e EditorFiles) diskOnly(ctx context.Context, path string) bool {
	if strings.IndexByte(path, 0) >= 0 {
		return true
	}
	info, err := e.disk().Stat(ctx, path)
	return err == nil && !info.Mode().IsRegular()
}

// isText reports whether data can travel as editor text unchanged.
func isText(data []byte) bool {
	return utf8.Valid(data) && bytes.IndexByte(data, 0) < 0
}
