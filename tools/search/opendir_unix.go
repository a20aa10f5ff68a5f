//go:build unix

package search

import (
	"os"
	"syscall"
)

// openDir opens the directory at path for listing. O_DIRECTORY makes the
// open fail at once on anything else, so a named pipe swapped in after the
// walk listed a directory cannot block it.
func openDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
}
