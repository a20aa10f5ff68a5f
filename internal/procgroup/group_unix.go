//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
	"time"
)

// Group is a started program's process group.
type Group struct {
	pgid int
}

// Isolate makes cmd start as the leader of a process group of its own.
func Isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Hold returns the group of cmd, started after Isolate. It cannot fail on
// Unix.
func Hold(cmd *exec.Cmd) (*Group, error) {
	return &Group{pgid: cmd.Process.Pid}, nil
}

// Stop ends every process of the group (see Stop of a pgid) and returns
// once none is left. A nil Group does nothing.
func (g *Group) Stop(grace time.Duration) {
	if g != nil {
		Stop(g.pgid, grace)
	}
}
