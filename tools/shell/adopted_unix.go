//go:build unix

package shell

import (
	"os"
	"strconv"
	"syscall"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
)

// reapAdopted reaps the zombies of the command whose session (and
// group) is sid that this process adopted: under a child subreaper, a
// process whose parent dies first is re-parented here, and when it then
// dies it waits for us. Call it once the command's leader has been reaped:
// the leader is the only child this process started in that session, so
// no other wait can want the zombies found there. Strays in sessions of
// their own that died before the command ended are not found (only
// exiting hands them to init).
func reapAdopted(sid int) {
	self := os.Getpid()
	for _, name := range procfs.PIDs() {
		st, ok := procfs.ReadStat(name)
		if !ok || st.PPID != self || st.State != 'Z' || (st.Session != sid && st.PGRP != sid) {
			continue
		}
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		var status syscall.WaitStatus
		_, _ = syscall.Wait4(pid, &status, syscall.WNOHANG, nil)
	}
}
