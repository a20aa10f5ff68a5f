//go:build !unix

package corpus

import "errors"

// mkfifo fails: named pipes in the file system are Unix's, so a case that
// needs one cannot be laid out here.
func mkfifo(string) error { return errors.New("named pipes in the file system exist only on Unix") }
