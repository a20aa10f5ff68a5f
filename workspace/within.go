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

// Locate returns where path (a relative one taken against the process's
// directory) leads once every symbolic link in it is followed (the same
// resolution as Target), with ok true only when that lies inside one of
// dirs, whose links are followed too. A link pointing outside does not
// count as inside, however many links it chains through, and a path whose
// links loop is inside nothing. This is the module's one answer to "is
// this path inside": every caller that decides it asks here (or Within,
// or a Workspace's Contains, which are built on it).
func Locate(path string, dirs ...string) (real string, ok bool) {
	real, ok = realPath(path)
	if !ok {
		return "", false
	}
	for _, dir := range dirs {
		if dir != "" && Under(resolveRoot(dir), real) {
			return real, true
		}
	}
	return "", false
}

// Within reports whether path lies inside one of dirs once links are
// followed, as Locate decides.
func Within(path string, dirs ...string) bool {
	_, ok := Locate(path, dirs...)
	return ok
}

// Under reports whether path is dir or lies below it, comparing the two
// clean absolute paths as written. It follows no link: it is for paths
// whose links are already followed (by Locate or Target) or that name
// places the caller made itself, and it is the one lexical comparison the
// module uses, so "below" means the same everywhere.
func Under(dir, path string) bool {
	_, ok := Relative(dir, path)
	return ok
}

// Relative returns path relative to dir when path is dir (".") or lies
// below it, as Under decides; ok is false otherwise. Names compare as the
// platform's file systems do by default: exactly on Linux, without case
// on macOS and Windows; on Windows drive letters and UNC shares must
// match too, and either separator may be used.
func Relative(dir, path string) (rel string, ok bool) {
	return hostRule().relative(dir, path)
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
	real, ok := Locate(path, dirs...)
	if !ok {
		leads, resolved := realPath(path)
		if !resolved {
			leads = "a loop of links"
		}
		return nil, nil, fmt.Errorf("%s (leads to %s): %w", path, leads, ErrOutside)
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
