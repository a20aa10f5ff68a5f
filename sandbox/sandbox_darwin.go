//go:build darwin

package sandbox

import (
	"os"
	"os/exec"
)

// New finds sandbox-exec, which runs each command under a Seatbelt
// profile made from its Policy. Without it nothing is sandboxed.
func New() *Sandbox {
	if _, err := os.Stat(seatbeltExec); err != nil {
		return &Sandbox{status: Status{Missing: []string{"macOS's sandbox-exec is missing (" + err.Error() + ")."}}}
	}
	return &Sandbox{status: Status{Seatbelt: true}, exe: seatbeltExec}
}

// confine runs cmd's program through sandbox-exec with p's profile; it
// execs the program, so the exit is the program's.
func (s *Sandbox) confine(cmd *exec.Cmd, p Policy) (*Confined, error) {
	// Seatbelt matches real paths (/tmp is /private/tmp).
	p.Write, p.DenyRead, p.ReadOnly = resolveAll(p.Write), resolveAll(p.DenyRead), resolveAll(p.ReadOnly)
	cmd.Args = append([]string{seatbeltExec, "-p", seatbeltProfile(p), cmd.Path}, cmd.Args[1:]...)
	cmd.Path = seatbeltExec
	return &Confined{}, nil
}

func runHelper([]string) int {
	os.Stderr.WriteString("dsh-acp sandbox: macOS needs no helper\n")
	return 126
}

type exitReport struct{}

func (exitReport) started() {}

func (exitReport) discard() {}

func (exitReport) exit(state *os.ProcessState) Exit { return ExitOf(state) }
