package shell

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// groupPoll is how often a stopping process group is checked.
const groupPoll = 10 * time.Millisecond

// stopGroup ends every process of the group pgid, whose leader's reaping
// closes exited: SIGTERM (and SIGCONT, so a stopped process sees it) to the
// whole group, then SIGKILL to whatever is still alive once grace has
// passed. It returns once the leader has been reaped and no live process
// is left in the group (or, after SIGKILL, a last short wait has passed).
//
// The group id cannot be taken by another process while the leader is
// unreaped or any member lives, so every signal reaches only the command's
// own processes; signals are sent after the leader's reaping only while
// groupAlive says a member remains.
func stopGroup(pgid int, exited <-chan struct{}, grace time.Duration) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
	if waitGroupGone(pgid, exited, grace) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	<-exited
	waitGroupGone(pgid, exited, grace)
}

// waitGroupGone waits up to limit for the leader to be reaped and the
// group to have no live member, and reports whether that happened.
func waitGroupGone(pgid int, exited <-chan struct{}, limit time.Duration) bool {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(groupPoll)
	defer tick.Stop()
	reaped := false
	for {
		if !reaped {
			select {
			case <-exited:
				reaped = true
			default:
			}
		}
		if reaped && !groupAlive(pgid) {
			return true
		}
		select {
		case <-exited:
			reaped = true
		case <-tick.C:
		case <-deadline.C:
			return false
		}
	}
}

// groupAlive reports whether a process of group pgid is still running.
// Zombies (dead, waiting for a parent to reap them) do not count; where
// /proc cannot tell, any member counts.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	live, known := liveMembers(pgid)
	return !known || live
}

// liveMembers scans /proc for a process of group pgid that is not a
// zombie. known is false when /proc is not available.
func liveMembers(pgid int) (live, known bool) {
	pids := procPIDs()
	if pids == nil {
		return false, false
	}
	for _, pid := range pids {
		state, group, ok := procState(pid)
		if ok && group == pgid && state != 'Z' && state != 'X' {
			return true, true
		}
	}
	return false, true
}

// procPIDs lists the process ids in /proc, or nil when it cannot be read.
func procPIDs() []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	pids := make([]string, 0, len(entries))
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// procState reads a process's state letter and process group from
// /proc/<pid>/stat ("pid (comm) S ppid pgrp …"; comm may hold spaces and
// parentheses, so fields are counted after the last ')').
func procState(pid string) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false
	}
	s := string(data)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return 0, 0, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 3 || len(fields[0]) != 1 {
		return 0, 0, false
	}
	pgrp, err = strconv.Atoi(fields[2])
	if err != nil {
		return 0, 0, false
	}
	return fields[0][0], pgrp, true
}
