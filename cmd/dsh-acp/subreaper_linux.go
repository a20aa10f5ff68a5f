//go:build linux

package main

import "syscall"

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER.
const prSetChildSubreaper = 36

// becomeSubreaper makes this process the child subreaper of its
// descendants: a process they orphan (the shell behind `setsid prog &`
// exits) is re-parented to this process instead of to init, so it stays a
// descendant that the shutdown finds and stops (killDescendants). The
// bash tool reaps the orphans it stops itself; an orphan that exits on its
// own stays a zombie until dsh-acp exits.
func becomeSubreaper() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return errno
	}
	return nil
}
