package shell

import (
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
)

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

// reaped reports whether the leader has been reaped.
func (p *process) reaped() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
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
