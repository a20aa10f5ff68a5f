//go:build unix

package search

import (
	"errors"
	"io"
	"io/fs"
	"syscall"
)

// rawFile is a file read with plain system calls: for the many small
// files a search reads, os.File's poller registration costs as much as
// the read itself.
type rawFile struct{ fd int }

// openRaw opens the regular file at path for reading. The open never
// blocks (a named pipe swapped in after the walk listed a file would wait
// for a writer) nor takes a terminal as the controlling one, and anything
// but a regular file is refused with errNotRegular before a byte is read.
func openRaw(path string) (rawFile, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return rawFile{}, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		f := rawFile{fd: fd}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			f.Close()
			return rawFile{}, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			f.Close()
			return rawFile{}, &fs.PathError{Op: "open", Path: path, Err: errNotRegular}
		}
		return f, nil
	}
}

// Read reads into p; io.EOF at the end of the file.
func (f rawFile) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(f.fd, p)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// Size returns the file's size.
func (f rawFile) Size() (int64, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(f.fd, &st); err != nil {
		return 0, err
	}
	return st.Size, nil
}

// Close closes the file.
func (f rawFile) Close() error { return syscall.Close(f.fd) }
