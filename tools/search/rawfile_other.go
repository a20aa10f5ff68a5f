//go:build !unix

package search

import (
	"io/fs"
	"os"
)

// rawFile is an os.File where plain system calls are not available.
type rawFile struct{ *os.File }

// openRaw opens the regular file at path for reading; anything else is
// refused with errNotRegular.
func openRaw(path string) (rawFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return rawFile{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return rawFile{}, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return rawFile{}, &fs.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	return rawFile{f}, nil
}

// Size returns the file's size.
func (f rawFile) Size() (int64, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}
