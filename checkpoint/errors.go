package checkpoint

import (
	"errors"
	"fmt"
)

// ErrNoGit is wrapped by the error Open returns when the git binary cannot
// be found or run. PreImages is the fallback.
var ErrNoGit = errors.New("git is not available")

// ErrNothingToUndo is wrapped by the error Undo returns when the stack
// holds no checkpoint.
var ErrNothingToUndo = errors.New("nothing to undo")

// ErrUnknownCheckpoint is wrapped by the error for an id that names no
// checkpoint of this workspace.
var ErrUnknownCheckpoint = errors.New("unknown checkpoint")

// ErrTooManyFiles is wrapped by the error a checkpoint returns, without
// taking one, when the workspace holds more files than Options.MaxFiles
// allows (a home directory opened as a project, say). The error is a
// *TooManyFilesError.
var ErrTooManyFiles = errors.New("too many files for a checkpoint")

// TooManyFilesError says how many files a checkpoint would have held.
type TooManyFilesError struct {
	Root  string
	Files int // the files the checkpoint would hold, at least
	Limit int // Options.MaxFiles
}

// Error says what happened and what to do about it.
func (e *TooManyFilesError) Error() string {
	return fmt.Sprintf("checkpoint of %s: it holds at least %d files, more than the limit of %d; "+
		"ignore generated directories in .gitignore or open a smaller folder", e.Root, e.Files, e.Limit)
}

// Is makes errors.Is(err, ErrTooManyFiles) hold.
func (e *TooManyFilesError) Is(target error) bool { return target == ErrTooManyFiles }
