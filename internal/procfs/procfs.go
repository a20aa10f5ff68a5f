// Package procfs reads what Linux's /proc says of processes: which exist,
// and each one's state, parent, process group and session. Where /proc
// cannot be read (another system, a sandbox without it), PIDs is nil and
// ReadStat reports nothing, so callers can tell "none" from "unknown".
//
//	for _, pid := range procfs.PIDs() {
//		if st, ok := procfs.ReadStat(pid); ok && st.Live() && st.PGRP == pgid {
//			// a live member of the group
//		}
//	}
package procfs

import (
	"os"
	"strconv"
	"strings"
)

// Stat is what /proc/<pid>/stat says of a process.
type Stat struct {
	// State is R, S, D, Z (zombie), X (dead), ….
	State byte
	// PPID, PGRP and Session are the parent's process id, the process
	// group and the session.
	PPID, PGRP, Session int
}

// Live reports whether the process still runs: neither a zombie nor dead.
func (s Stat) Live() bool { return s.State != 'Z' && s.State != 'X' }

// ReadStat reads /proc/<pid>/stat ("pid (comm) S ppid pgrp session …";
// comm may hold spaces and parentheses, so fields are counted after the
// last ')'). ok is false when the process is gone or the file cannot be
// read.
func ReadStat(pid string) (st Stat, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return Stat{}, false
	}
	s := string(data)
	end := strings.LastIndexByte(s, ')')
	if end < 0 {
		return Stat{}, false
	}
	fields := strings.Fields(s[end+1:])
	if len(fields) < 4 || len(fields[0]) != 1 {
		return Stat{}, false
	}
	ppid, err1 := strconv.Atoi(fields[1])
	pgrp, err2 := strconv.Atoi(fields[2])
	session, err3 := strconv.Atoi(fields[3])
	if err1 != nil || err2 != nil || err3 != nil {
		return Stat{}, false
	}
	return Stat{State: fields[0][0], PPID: ppid, PGRP: pgrp, Session: session}, true
}

// PIDs lists the process ids in /proc, or nil when it cannot be read.
func PIDs() []string {
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
