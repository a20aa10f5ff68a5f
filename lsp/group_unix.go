//go:build unix

package lsp

import (
	"os/exec"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
)

// killGrace is how long a stopped server's process group has between
// SIGTERM and SIGKILL.
const killGrace = 2 * time.Second

// ownGroup makes cmd the leader of a new process group.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup stops cmd's process group, which its children share: SIGTERM,
// then SIGKILL after killGrace (procgroup.Stop); it returns once no
// process of the group is left.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		procgroup.Stop(cmd.Process.Pid, killGrace)
	}
}
