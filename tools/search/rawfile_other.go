//go:build !unix

package search

import "os"

// rawFile is an os.File where plain system calls are not available.
type rawFile struct{ *os.File }

// openRaw opens path for reading.
func openRaw(path string) (rawFile, error) {
	f, err := os.Open(path)
	return rawFile{f}, err
}

// Size returns the file's size.
func (f rawFile) Size() (int64, error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Size(), nil
}
