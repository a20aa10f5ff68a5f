//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
)

// killGrace is how long a stopped server's process group has between
// SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// ownGroup makes cmd start in a process group of its own.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup stops every process in the group cmd leads (SIGTERM, then
// SIGKILL after killGrace; see procgroup.Stop) and returns once none is
// left; it does nothing when the group is gone.
func killGroup(cmd *exec.Cmd) {
	procgroup.Stop(cmd.Process.Pid, killGrace)
}
