package sandbox_test

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// The summary names what is enforced, and says what is not.
func TestStatusSummary(t *testing.T) {
	tests := []struct {
		name      string
		status    sandbox.Status
		want, not []string
	}{
		{
			name:   "everything",
			status: sandbox.Status{Landlock: 7, PID: true, Mount: true, Net: true},
			want:   []string{"(Landlock ABI 7; PID, mount and network namespaces)", "nor list what those directories hold", "own loopback", "only their own processes", ".git directories are read-only", "cannot connect to a container daemon's socket"},
			not:    []string{"stay writable", "can see"},
		},
		{
			name:   "a PID namespace needs a mount namespace",
			status: sandbox.Status{Landlock: 7, PID: true, Net: true, Missing: []string{"No mount namespace could be made (denied)."}},
			want:   []string{"(Landlock ABI 7; a network namespace)", "can list the names", "not signal them", "stay writable", "socket (Docker, Podman, containerd) stays reachable", "No mount namespace could be made (denied)."},
			not:    []string{"PID", "only their own processes"},
		},
		{
			name:   "Landlock alone",
			status: sandbox.Status{Landlock: 7},
			want:   []string{"(Landlock ABI 7; no namespaces)", "seccomp refuses", "Landlock refuses TCP", "not signal them"},
			not:    []string{"loopback"},
		},
		{
			name:   "an old Landlock",
			status: sandbox.Status{Landlock: 3, Mount: true},
			want:   []string{"(Landlock ABI 3; a mount namespace)", "seccomp refuses", "see and signal other processes"},
			not:    []string{"Landlock refuses TCP", "only their own processes"},
		},
		{
			name:   "none",
			status: sandbox.Status{Missing: []string{"The kernel has no Landlock."}},
			want:   []string{"No kernel sandbox is available (The kernel has no Landlock.)", "asks first"},
			not:    []string{"ABI"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.status.Summary()
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("the summary lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("the summary says %q:\n%s", n, got)
				}
			}
		})
	}
}
