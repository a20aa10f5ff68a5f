//go:build unix

package corpus

import "syscall"

// mkfifo creates a named pipe at path.
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }
