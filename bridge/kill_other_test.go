//go:build !unix

package bridge_test

import "os"

// killAll is a safety net: it kills whatever of the test's own commands
// is left, so a failing test leaks no processes.
func killAll(pids []int) {
	for _, pid := range pids {
		if proc, err := os.FindProcess(pid); pid > 0 && err == nil {
			_ = proc.Kill()
			_ = proc.Release()
		}
	}
}
