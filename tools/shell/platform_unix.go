//go:build unix

package shell

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
	"github.com/dsh-acp/dsh-acp/sandbox"
)

// defaultShell is the shell of a Shell whose Options name none
// (posixShell).
func defaultShell() (string, error) {
	return posixShell(hostLookup{env: os.Getenv, lookPath: exec.LookPath}), nil
}

// tree holds a command's processes on Unix: its shell leads a session and
// process group of its own (pgid = the shell's pid, or the sandbox
// helper's), and the processes that leave the group are found as strays
// (strays_unix.go).
type tree struct {
	pgid int
}

// isolate makes cmd lead a session of its own (Setsid), and so a process
// group of its own with no controlling terminal.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// hold returns the tree of the started cmd: its group is its pid.
func hold(cmd *exec.Cmd) (tree, error) {
	return tree{pgid: cmd.Process.Pid}, nil
}

// groupID is what tests learn of a started command: its process group.
func (t tree) groupID() int { return t.pgid }

// release lets go of the tree; on Unix it holds nothing.
func (tree) release() {}

// statusOf is how the command ended, as the model reads it: a signal by
// its name.
func (tree) statusOf(e sandbox.Exit) exitStatus {
	if e.Signal != 0 {
		return exitStatus{signal: signalName(e.Signal)}
	}
	return exitStatus{code: e.Code}
}

// terminate stops the whole command: its process group and its strays
// (stopAll).
func (p *process) terminate(grace time.Duration) {
	strays := findStrays(p.id, p.pgid)
	defer releaseStrays(strays)
	p.stopAll(grace, strays)
}

// stopRest, called once the leader has been reaped, stops whatever the
// command left running (in its group, or strays that left it) and reaps
// the command's processes this process adopted (reapAdopted).
func (p *process) stopRest(grace time.Duration) {
	strays := findStrays(p.id, p.pgid)
	if groupAlive(p.pgid) || len(strays) > 0 {
		p.stopAll(grace, strays)
	}
	releaseStrays(strays)
	reapAdopted(p.pgid)
}

// groupPoll is how often a stopping command is checked.
const groupPoll = 10 * time.Millisecond

// stopAll ends every process of the command p: its process group, whose
// leader's reaping closes p.exited, and its strays. SIGTERM (and SIGCONT,
// so a stopped process sees it) goes to the whole group and to each
// stray; once grace has passed, SIGKILL goes to whatever is still alive,
// including strays started meanwhile. It returns once the leader has been
// reaped and no live process is left in the group or among the strays
// (or, after SIGKILL, a last short wait has passed).
//
// The group id cannot be taken by another process while the leader is
// unreaped or any member lives, so every signal reaches only the command's
// own processes: signals go to the group after the leader's reaping only
// while groupAlive says a member remains, and to strays through their
// pinned handles.
func (p *process) stopAll(grace time.Duration, strays []*stray) {
	p.signal(syscall.SIGTERM, strays)
	p.signal(syscall.SIGCONT, strays)
	if p.waitGone(strays, grace) {
		return
	}
	late := findStrays(p.id, p.pgid)
	defer releaseStrays(late)
	strays = append(strays, late...)
	p.signal(syscall.SIGKILL, strays)
	<-p.exited
	p.waitGone(strays, grace)
}

// signal sends sig to the group (while it may have members) and to every
// stray.
func (p *process) signal(sig syscall.Signal, strays []*stray) {
	if !p.reaped() || groupAlive(p.pgid) {
		_ = syscall.Kill(-p.pgid, sig)
	}
	for _, s := range strays {
		s.signal(sig)
	}
}

// waitGone waits up to limit for the leader to be reaped, the group to
// have no live member and every stray to be dead, and reports whether
// that happened.
func (p *process) waitGone(strays []*stray, limit time.Duration) bool {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(groupPoll)
	defer tick.Stop()
	for {
		if p.reaped() && !groupAlive(p.pgid) && allGone(strays) {
			return true
		}
		select {
		case <-p.exited:
		case <-tick.C:
		case <-deadline.C:
			return false
		}
	}
}

// allGone reports whether every stray has died.
func allGone(strays []*stray) bool {
	for _, s := range strays {
		if !s.gone() {
			return false
		}
	}
	return true
}

// groupAlive reports whether a process of group pgid is still running
// (procgroup.Alive: zombies do not count; where /proc cannot tell, any
// member counts).
func groupAlive(pgid int) bool { return procgroup.Alive(pgid) }
