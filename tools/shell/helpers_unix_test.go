//go:build unix

package shell

import (
	"testing"
	"time"
)

// waitGone fails the test unless group pgid comes to have no live process
// (within hangGuard). Zombies waiting for init to reap them are dead and
// do not count.
func waitGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for groupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still has live processes after %v", pgid, hangGuard)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
