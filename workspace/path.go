package workspace

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidPath is matched (with errors.Is) by every error ValidatePath
// returns.
var ErrInvalidPath = errors.New("invalid path")

// InvalidPathError is a path no file system accepts.
type InvalidPathError struct {
	Path   string // the path as given
	Reason string // what is wrong with it, as a clause
}

// Error says what is wrong and what to do instead.
func (e *InvalidPathError) Error() string {
	return fmt.Sprintf("the path %q %s", e.Path, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidPath) hold.
func (e *InvalidPathError) Is(target error) bool { return target == ErrInvalidPath }

// ValidatePath returns an *InvalidPathError when path cannot name a file
// for sure: when it holds a NUL byte, and on Windows when it is relative
// to another drive's current directory ("D:x"), a device path (`\\?\…`,
// `\\.\…`), or holds a name Windows reads as another file (a device's
// reserved name such as "nul.txt", a name ending in a dot or a space, a
// data stream after a colon). Such a path must be refused, not cleaned: cleaning
// "a\x00../../x" drops the NUL along with "a\x00.." and names another
// file.
func ValidatePath(path string) error {
	if i := strings.IndexByte(path, 0); i >= 0 {
		return &InvalidPathError{Path: path, Reason: fmt.Sprintf(
			"contains a NUL byte (at byte %d), which no file path may hold: pass the path without it", i)}
	}
	if reason := hostRule().refuse(path); reason != "" {
		return &InvalidPathError{Path: path, Reason: reason}
	}
	return nil
}
