package fs

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// The codes on the file tools' failures. Callers route on the code, never
// on the message, which is written for the model.
const (
	CodeNotFound     = "FS_NOT_FOUND"           // the file does not exist
	CodeIsDirectory  = "FS_IS_DIRECTORY"        // the path is a directory
	CodeNotRegular   = "FS_NOT_REGULAR"         // the path is a named pipe, socket, device or other special file
	CodeNotDirectory = "FS_NOT_DIRECTORY"       // a parent in the path is a file
	CodePermission   = "FS_PERMISSION"          // the operating system denied access
	CodeReadOnly     = "FS_READ_ONLY"           // write or edit of a file with no write bit
	CodeTooLarge     = "FS_TOO_LARGE"           // over Options.MaxFileBytes
	CodeBinary       = "FS_BINARY"              // a NUL byte in the first 8 KiB, or not UTF-8
	CodeIO           = "FS_IO"                  // any other file-system failure
	CodeBadArgs      = registry.CodeInvalidArgs // an argument the schema allows but the tool cannot use

	CodeOffsetPastEnd = "READ_OFFSET_PAST_END" // read's offset is beyond the last line

	CodeNoMatch        = "EDIT_NOT_FOUND"        // old_string does not occur
	CodeNotUnique      = "EDIT_NOT_UNIQUE"       // old_string occurs more than once without replace_all
	CodeNoChange       = "EDIT_NO_CHANGE"        // the edit would change nothing (or only the final newline)
	CodeEmptyOldString = "EDIT_EMPTY_OLD_STRING" // empty old_string on a file with content
)

// toolError returns the coded error the model reads.
func toolError(code, format string, args ...any) *registry.Error {
	return &registry.Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// argsError is an argument the schema cannot rule out (a negative number,
// an empty path).
func argsError(violation string) *registry.Error {
	return registry.ArgsError([]string{violation})
}

// fsError turns a FileSystem failure on name into the coded error the
// model reads. verb says what was attempted ("read", "write"); notFound is
// the advice for a missing file. Cancellation passes through unchanged, so
// the pipeline reports it as such.
func fsError(err error, verb, name, notFound string) error {
	code, msg := CodeIO, fmt.Sprintf("cannot %s %s: %v", verb, name, err)
	var special *workspace.NotRegularError
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.As(err, &special):
		return notRegular(name, special.Mode)
	case errors.Is(err, workspace.ErrInvalidPath):
		return argsError("file_path: " + err.Error())
	case errors.Is(err, iofs.ErrNotExist) && !underFile(err):
		code, msg = CodeNotFound, fmt.Sprintf("%s does not exist: %s", name, notFound)
	case errors.Is(err, syscall.ENOTDIR), errors.Is(err, iofs.ErrNotExist):
		code, msg = CodeNotDirectory, fmt.Sprintf("cannot %s %s: a parent in the path is a file, not a directory: check the path", verb, name)
	case errors.Is(err, iofs.ErrPermission):
		code, msg = CodePermission, fmt.Sprintf("cannot %s %s: permission denied: ask the user to change its permissions, or use another path", verb, name)
	}
	return &registry.Error{Code: code, Message: msg, Cause: err}
}

// notRegular is the refusal of a path that is neither a regular file nor a
// directory (a named pipe, a socket, a device), named as messages name it.
func notRegular(name string, mode iofs.FileMode) error {
	return &registry.Error{Code: CodeNotRegular, Message: (&workspace.NotRegularError{Path: name, Mode: mode}).Error()}
}

// underFile reports whether err, a path not found, is about a path that
// is a file or lies under one: Windows reports such a path as not found
// (ERROR_PATH_NOT_FOUND, from a stat below the file or from mkdir of the
// file itself) where Unix says ENOTDIR.
func underFile(err error) bool {
	var pe *iofs.PathError
	if !errors.As(err, &pe) {
		return false
	}
	for dir := pe.Path; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if info, err := os.Stat(dir); err == nil {
			return !info.IsDir()
		}
	}
	return false
}
