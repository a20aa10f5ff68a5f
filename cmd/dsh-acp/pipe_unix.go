//go:build !windows

package main

import (
	"errors"
	"syscall"
)

// closedPipe reports whether err is a write to a stdout the client
// closed: EPIPE (SIGPIPE is ignored), or ECONNRESET on a socket.
func closedPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)
}
