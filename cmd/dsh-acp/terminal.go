package main

import (
	"fmt"
	"io"
	"os"
)

// terminalHint is the line dsh-acp prints to stderr when a person starts
// it in a terminal.
const terminalHint = "dsh-acp speaks the Agent Client Protocol (ACP) on stdin and stdout, for an editor to launch; " +
	"try `dsh-acp demo` to watch a session, or `dsh-acp --help` (Ctrl-D ends this one)."

// hintIfTerminal prints terminalHint to stderr when in is a terminal.
func hintIfTerminal(in io.Reader, stderr io.Writer) {
	if f, ok := in.(*os.File); ok && isTerminal(f) {
		fmt.Fprintln(stderr, terminalHint)
	}
}

// isTerminal reports whether f is a terminal: a character device other
// than the null device (editors never start an agent on one, so other
// devices need no telling apart).
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(info, null)
}
