//go:build windows

package shell

import (
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/jobobject"
	"github.com/dsh-acp/dsh-acp/sandbox"
)

// defaultShell is the shell of a Shell whose Options name none
// (windowsShell).
func defaultShell() (string, error) {
	return windowsShell(hostLookup{env: os.Getenv, lookPath: exec.LookPath, exists: func(path string) bool {
		info, err := os.Stat(path)
		return err == nil && !info.IsDir()
	}})
}

// tree holds a command's processes on Windows: a Job Object of its own,
// which the shell enters before it runs (it starts suspended), which every
// process it starts is born into and cannot leave, and whose closing kills
// whatever still runs in it. Windows has no signals: stopping a command
// kills every process of its job at once, without a grace.
type tree struct {
	job *jobobject.Job
	pid int
	// killed is set when this package killed the job before its shell
	// ended: the command then reads as killed by SIGKILL.
	killed *atomic.Bool
}

// isolate makes cmd start suspended, in a process group of its own, with
// no console window (jobobject.CreationFlags).
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: jobobject.CreationFlags}
}

// hold puts the started, suspended cmd in a job of its own and lets it
// run.
func hold(cmd *exec.Cmd) (tree, error) {
	job, err := jobobject.Hold(cmd.Process.Pid)
	if err != nil {
		return tree{}, err
	}
	return tree{job: job, pid: cmd.Process.Pid, killed: new(atomic.Bool)}, nil
}

// groupID is what tests learn of a started command: its shell's pid.
func (t tree) groupID() int { return t.pid }

// release closes the job, killing anything still in it.
func (t tree) release() { _ = t.job.Close() }

// statusOf is how the command ended, as the model reads it: killed by
// SIGKILL when this package killed it, else its exit code.
func (t tree) statusOf(e sandbox.Exit) exitStatus {
	if t.killed.Load() {
		return exitStatus{signal: "SIGKILL"}
	}
	return exitStatus{code: e.Code}
}

// terminate kills every process of the command and returns once its
// shell has been reaped and its job is empty (or grace has passed).
func (p *process) terminate(grace time.Duration) {
	if !p.reaped() {
		p.killed.Store(true)
	}
	_ = p.job.Terminate()
	<-p.exited
	p.waitEmpty(grace)
}

// stopRest, called once the shell has been reaped, kills whatever the
// command left running in its job.
func (p *process) stopRest(grace time.Duration) {
	if n, err := p.job.Active(); err == nil && n == 0 {
		return
	}
	_ = p.job.Terminate()
	p.waitEmpty(grace)
}

// groupPoll is how often a stopping command's job is looked at.
const groupPoll = 10 * time.Millisecond

// waitEmpty waits up to limit for the job to have no running process.
func (p *process) waitEmpty(limit time.Duration) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(groupPoll)
	defer tick.Stop()
	for {
		if n, err := p.job.Active(); err != nil || n == 0 {
			return
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return
		}
	}
}
