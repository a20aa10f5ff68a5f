//go:build unix

package bridge_test

import "syscall"

// killAll is a safety net: it kills whatever of the test's own commands
// is left, so a failing test leaks no processes.
func killAll(pids []int) {
	for _, pid := range pids {
		if pid > 0 {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
