//go:build !linux

package main

import (
	"os"
	"testing"
)

// openPTY reports no pseudo-terminal: the tests that need one are Linux's.
func openPTY(t *testing.T) (master, slave *os.File, ok bool) { return nil, nil, false }
