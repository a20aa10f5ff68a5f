//go:build unix

package shell

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
)

// A stray is a process of a command that left the command's process
// group: `setsid prog &`, a daemon that double-forks, anything that
// changes its group or session. Signals to the group miss it, so it is
// found by what it inherited instead: the DSH_COMMAND_ID=<id> entry of
// its environment (commandIDVar), unique to the command. A process that
// execs with a cleared environment (env -i) loses the entry and is not
// found here; the program embedding the Shell may stop such processes when
// it exits (dsh-acp makes itself the child subreaper and stops all its
// descendants).
//
// Strays are found by reading /proc/<pid>/environ; where /proc is absent,
// none are found and only the process group is stopped.
type stray struct {
	pid int
	// proc pins the process (a pidfd on Linux), so neither a signal nor a
	// wait can reach another process that reuses the pid.
	proc *os.Process
}

// findStrays returns the live processes, other than the command's leader,
// whose environment carries the command's id. Release them when done.
func findStrays(id string, leader int) []*stray {
	if id == "" {
		return nil
	}
	entry := []byte(commandIDVar + "=" + id)
	var found []*stray
	for _, name := range procfs.PIDs() {
		pid, _ := strconv.Atoi(name)
		if pid == leader || pid == os.Getpid() || !carries(name, entry) || inGroup(name, leader) {
			continue
		}
		proc, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		// The pid may have been reused between the read and FindProcess:
		// read again, now that proc is pinned.
		if !carries(name, entry) {
			_ = proc.Release()
			continue
		}
		found = append(found, &stray{pid: pid, proc: proc})
	}
	return found
}

// inGroup reports whether process pid is still in the command's process
// group (pgid = the leader's pid): the group's signals reach it, so it is
// no stray, and signalling it again would deliver a signal twice (a
// sandboxed command's shell is a member of the helper's group, and a TERM
// trap of its would run twice).
func inGroup(pid string, leader int) bool {
	st, ok := procfs.ReadStat(pid)
	return ok && st.PGRP == leader
}

// carries reports whether process pid's environment holds entry exactly.
func carries(pid string, entry []byte) bool {
	data, err := os.ReadFile("/proc/" + pid + "/environ")
	if err != nil {
		return false
	}
	for kv := range bytes.SplitSeq(data, []byte{0}) {
		if bytes.Equal(kv, entry) {
			return true
		}
	}
	return false
}

// signal sends sig to the stray; a stray that is gone is ignored.
func (s *stray) signal(sig syscall.Signal) {
	_ = s.proc.Signal(sig)
}

// gone reports whether the stray has died. A dead stray that is this
// process's child (adopted by a child subreaper) is reaped, so it does not
// linger as a zombie.
func (s *stray) gone() bool {
	st, ok := procfs.ReadStat(strconv.Itoa(s.pid))
	if !ok {
		return true
	}
	if st.State != 'Z' && st.State != 'X' {
		return false
	}
	if st.PPID == os.Getpid() {
		_, _ = s.proc.Wait() // a zombie: returns at once
	}
	return true
}

// releaseStrays frees the strays' handles.
func releaseStrays(strays []*stray) {
	for _, s := range strays {
		_ = s.proc.Release()
	}
}
