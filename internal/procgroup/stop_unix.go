//go:build unix

package procgroup

import (
	"errors"
	"syscall"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
)

// poll is how often a stopping group is looked at.
const poll = 10 * time.Millisecond

// Stop ends every process of group pgid: SIGTERM (and SIGCONT, so a
// stopped process sees it) to the group; once grace has passed, SIGKILL
// to whatever is still alive. It returns once no live member is left
// (zombies waiting for their parent do not count), or a last grace after
// SIGKILL has passed. Signals go to the group only while a member lives,
// so a group id taken again after the group died is never signalled.
func Stop(pgid int, grace time.Duration) {
	if pgid <= 0 {
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGCONT} {
		signal(pgid, sig)
	}
	if waitGone(pgid, grace) {
		return
	}
	signal(pgid, syscall.SIGKILL)
	waitGone(pgid, grace)
}

// signal sends sig to the group while it has a live member.
func signal(pgid int, sig syscall.Signal) {
	if Alive(pgid) {
		_ = syscall.Kill(-pgid, sig)
	}
}

// waitGone waits up to limit for the group to have no live member and
// reports whether that happened.
func waitGone(pgid int, limit time.Duration) bool {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for Alive(pgid) {
		select {
		case <-tick.C:
		case <-deadline.C:
			return !Alive(pgid)
		}
	}
	return true
}

// Alive reports whether a process of group pgid still runs. Zombies do
// not count; where /proc cannot tell, any member counts.
func Alive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	pids := procfs.PIDs()
	if pids == nil {
		return true
	}
	for _, pid := range pids {
		if st, ok := procfs.ReadStat(pid); ok && st.PGRP == pgid && st.Live() {
			return true
		}
	}
	return false
}
