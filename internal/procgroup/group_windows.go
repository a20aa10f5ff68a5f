//go:build windows

package procgroup

import (
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/jobobject"
)

// Group is a started program's Job Object.
type Group struct {
	job  *jobobject.Job
	once sync.Once
}

// Isolate makes cmd start suspended, in a process group of its own and
// without a console window, so that Hold can put it in its job before it
// runs.
func Isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: jobobject.CreationFlags}
}

// Hold puts cmd, started after Isolate, in a job of its own and lets it
// run. When that fails the program is killed and never runs.
func Hold(cmd *exec.Cmd) (*Group, error) {
	job, err := jobobject.Hold(cmd.Process.Pid)
	if err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("hold %s in a job: %w", cmd.Path, err)
	}
	return &Group{job: job}, nil
}

// Stop kills every process of the job at once (Windows has no signal to
// ask first: grace is unused) and closes the job. Stopping again, or a
// nil Group, does nothing.
func (g *Group) Stop(time.Duration) {
	if g == nil {
		return
	}
	g.once.Do(func() {
		_ = g.job.Terminate()
		_ = g.job.Close()
	})
}
