//go:build windows

package main

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// closedPipe reports whether err is a write to a stdout the client
// closed: a broken pipe, a pipe being closed or no longer connected
// (Windows has no SIGPIPE), or a reset socket.
func closedPipe(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA) ||
		errors.Is(err, windows.ERROR_PIPE_NOT_CONNECTED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, windows.WSAECONNRESET)
}
