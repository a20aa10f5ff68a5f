//go:build !linux && !darwin

package sandbox

import (
	"os"
	"os/exec"
	"runtime"
)

// New reports that this platform has no sandbox yet: commands run
// unconfined there, and callers ask before each one that is not
// read-only.
func New() *Sandbox {
	return &Sandbox{status: Status{Missing: []string{"dsh-acp has no kernel sandbox on " + runtime.GOOS + " yet."}}}
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
