package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is matched (with errors.Is) by every *NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is the refusal to read or write a path that is not a
// regular file: a named pipe, a socket, a device, a directory. Reading a
// named pipe would block until something writes to it, so such paths are
// refused before anything waits on them.
type NotRegularError struct {
	Path string      // the path as the caller named it
	Mode fs.FileMode // what the path is
}

// Error names the path and what it is, e.g. "ws/fifo is not a regular file
// (named pipe); read, write and edit work on regular files only".
func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s); read, write and edit work on regular files only", e.Path, FileKind(e.Mode))
}

// Is makes errors.Is(err, ErrNotRegular) hold.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// FileKind names the kind of file mode describes, for messages: "regular
// file", "directory", "named pipe", "socket", "character device", "block
// device", "symbolic link", or "special file".
func FileKind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "regular file"
	case mode.IsDir():
		return "directory"
	case mode&fs.ModeNamedPipe != 0:
		return "named pipe"
	case mode&fs.ModeSocket != 0:
		return "socket"
	case mode&fs.ModeCharDevice != 0:
		return "character device"
	case mode&fs.ModeDevice != 0:
		return "block device"
	case mode&fs.ModeSymlink != 0:
		return "symbolic link"
	default:
		return "special file"
	}
}

// readRegular reads the regular file at path. Anything else is refused
// twice over: by a stat before the open, so a named pipe or device is
// never opened, and by openRegular, since the path may have been swapped
// in between.
func readRegular(path string) ([]byte, error) {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	f, info, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// One byte over the size, so the end of the file is seen without
	// growing the buffer.
	data := make([]byte, 0, info.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		switch {
		case err == io.EOF:
			return data, nil
		case err != nil:
			return nil, err
		case len(data) == cap(data):
			data = append(data, 0)[:len(data)]
		}
	}
}

// openRegular opens path for reading without ever blocking (a named pipe
// without a writer would hold a plain open), and refuses what the open
// file turns out not to be before a byte is read.
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|safeOpenFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = &NotRegularError{Path: path, Mode: info.Mode()}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}
