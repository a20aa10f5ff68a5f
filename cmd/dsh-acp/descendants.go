package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
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
			killIfStill(pid, table[pid].ppid)
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
	if st, ok := readProcStat(strconv.Itoa(pid)); ok && st.ppid == ppid && st.state != 'Z' {
		_ = proc.Signal(syscall.SIGKILL)
	}
}

// procEntry is what /proc/<pid>/stat says of a process.
type procEntry struct {
	state byte
	ppid  int
}

// procTable maps the live processes' ids to their entries.
type procTable map[int]procEntry

// readProcTable reads /proc; it is empty where /proc cannot be read.
func readProcTable() procTable {
	table := procTable{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return table
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readProcStat(e.Name()); ok && st.state != 'Z' && st.state != 'X' {
			table[pid] = st
		}
	}
	return table
}

// below lists the processes whose chain of parents reaches root.
func (t procTable) below(root int) []int {
	var pids []int
	for pid := range t {
		for p, hops := t[pid].ppid, 0; p > 1 && hops < len(t); p, hops = t[p].ppid, hops+1 {
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

// readProcStat reads a process's state and parent from /proc/<pid>/stat
// ("pid (comm) S ppid …"; comm may hold spaces and parentheses, so fields
// are counted after the last ')').
func readProcStat(pid string) (procEntry, bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return procEntry{}, false
	}
	s := string(data)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return procEntry{}, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 2 || len(fields[0]) != 1 {
		return procEntry{}, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return procEntry{}, false
	}
	return procEntry{state: fields[0][0], ppid: ppid}, true
}
