//go:build unix

package shell

import (
	"strconv"
	"syscall"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
)

// processGone reports whether process pid has ended (a zombie has); where
// /proc is absent, whether signal 0 finds it.
func processGone(pid int) bool {
	if procfs.PIDs() == nil {
		return !processSignalable(pid)
	}
	st, ok := procfs.ReadStat(strconv.Itoa(pid))
	return !ok || !st.Live()
}

// processSignalable reports whether signal 0 reaches process pid.
func processSignalable(pid int) bool { return syscall.Kill(pid, 0) == nil }
