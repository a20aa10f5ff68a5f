package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrOutside is matched (with errors.Is) by the error ReadFileWithin
// returns for a path that leads outside every directory it may read.
var ErrOutside = errors.New("the file lies outside the directories it may be read from, once links are followed")

// Within reports whether path (a relative one taken against the process's
// directory) lies inside one of dirs once every symbolic link in path and
// in dirs is followed (the same resolution as Target), so a link pointing
// outside does not count as inside, however many links it chains through.
// A path whose links loop is inside nothing.
func Within(path string, dirs ...string) bool {
	real, ok := realPath(path)
	if !ok {
		return false
	}
	for _, dir := range dirs {
		if dir != "" && within(resolveRoot(dir), real) {
			return true
		}
	}
	return false
}

// ReadFileWithin reads a file the project or the user provides to the
// agent (instructions, slash-command prompts): at most limit+1 bytes (so
// the caller can tell a file longer than limit), of the regular file path
// leads to, only when that file lies inside one of dirs (see Within). The
// file is opened at its real path without following a link there and
// without blocking, so a named pipe or a device is refused at once (an
// error matching ErrNotRegular), never waited on. A file outside is an
// error matching ErrOutside, naming path and where it leads.
func ReadFileWithin(path string, limit int64, dirs ...string) ([]byte, fs.FileInfo, error) {
	real, ok := realPath(path)
	if !ok || !Within(real, dirs...) {
		if !ok {
			real = "a loop of links"
		}
		return nil, nil, fmt.Errorf("%s (leads to %s): %w", path, real, ErrOutside)
	}
	f, err := os.OpenFile(real, os.O_RDONLY|safeOpenFlags|noFollowFlag, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, err
	}
	return data, info, nil
}
