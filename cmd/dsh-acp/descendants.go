package main

import (
	"os"
	"strconv"
	"syscall"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
)

// killDescendants sends SIGKILL to every live process below this one, as
// /proc shows it; where there is no /proc it does nothing. It is the last
// step of every exit: by then each session has stopped its commands, and
// what is left escaped them (a process that cleared its environment and
// left its group). It does not wait for the processes to die; exiting
// hands their zombies to init. With the child subreaper set
// (becomeSubreaper), orphans of our commands are descendants too.
func killDescendants() {
	self := os.Getpid()
	// A process forked while the table was read shows up on the next pass.
	for range 3 {
		table := readProcTable()
		victims := table.below(self)
		if len(victims) == 0 {
			return
		}
		for _, pid := range victims {
			killIfStill(pid, table[pid].PPID)
		}
	}
}

// killIfStill sends SIGKILL to pid if it still is the process seen with
// parent ppid: the pid is pinned first (a pidfd on Linux), then checked,
// so a process that reused the pid is never reached.
func killIfStill(pid, ppid int) {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	defer proc.Release()
	if st, ok := procfs.ReadStat(strconv.Itoa(pid)); ok && st.PPID == ppid && st.State != 'Z' {
		_ = proc.Signal(syscall.SIGKILL)
	}
}

// procTable maps the live processes' ids to their entries.
type procTable map[int]procfs.Stat

// readProcTable reads /proc; it is empty where /proc cannot be read.
func readProcTable() procTable {
	table := procTable{}
	for _, name := range procfs.PIDs() {
		pid, _ := strconv.Atoi(name)
		if st, ok := procfs.ReadStat(name); ok && st.Live() {
			table[pid] = st
		}
	}
	return table
}

// below lists the processes whose chain of parents reaches root.
func (t procTable) below(root int) []int {
	var pids []int
	for pid := range t {
		for p, hops := t[pid].PPID, 0; p > 1 && hops < len(t); p, hops = t[p].PPID, hops+1 {
			if p == root {
				pids = append(pids, pid)
				break
			}
			if _, ok := t[p]; !ok {
				break
			}
		}
	}
	return pids
}
