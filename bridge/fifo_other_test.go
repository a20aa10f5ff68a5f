//go:build !unix

package bridge_test

import "testing"

// mkfifo skips the test: named pipes in the file system are Unix's.
func mkfifo(t *testing.T, _ string) {
	t.Helper()
	t.Skip("named pipes in the file system exist only on Unix")
}
