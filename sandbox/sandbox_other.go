//go:build !linux && !darwin

package sandbox

import (
	"os"
	"os/exec"
	"runtime"
)

// New reports that this platform (Windows, and every system but Linux
// and macOS) has no sandbox: Status().Available() is false, Confine
// fails with ErrUnavailable, commands run unconfined with the user's own
// rights, and callers ask before each one that is not read-only, as on a
// Linux kernel without Landlock.
func New() *Sandbox {
	return &Sandbox{status: Status{Missing: []string{"dsh-acp has no kernel sandbox on " + runtime.GOOS + ": commands are not confined"}}}
}

func (s *Sandbox) confine(*exec.Cmd, Policy) (*Confined, error) { return nil, ErrUnavailable }

func runHelper([]string) int {
	os.Stderr.WriteString("dsh-acp sandbox: no sandbox helper on " + runtime.GOOS + "\n")
	return 126
}

type exitReport struct{}

func (exitReport) started() {}

func (exitReport) discard() {}

func (exitReport) exit(state *os.ProcessState) Exit { return ExitOf(state) }
