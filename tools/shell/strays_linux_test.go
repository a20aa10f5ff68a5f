package shell

import (
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
	"github.com/dsh-acp/dsh-acp/registry"
)

// A process that leaves the command's process group with setsid is still
// the command's: it is stopped when the command is cancelled, when the
// command ends, when its job is killed, and when the Shell closes.
func TestStraysAreStoppedWithTheirCommand(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid program")
	}
	// The stray prints its pid once it has left the group for a session
	// of its own (setsid execs sleep in place: a background child of
	// bash -c is no group leader).
	const stray = `setsid sleep 300 & until [ "$(cut -d' ' -f6 /proc/$!/stat)" = "$!" ]; do sleep 0.01; done; echo "stray=$!"`
	tests := []struct {
		name string
		// run starts the command and stops it the way the case says; it
		// returns once the stray's pid is known and the stop was asked.
		run func(t *testing.T, f *fixture, seen *strayPID) (wait func())
	}{
		{"a cancelled foreground command", func(t *testing.T, f *fixture, seen *strayPID) func() {
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() {
				defer close(done)
				f.runCtx(ctx, t, "bash", fmt.Sprintf(`{"command":%q}`, stray+"; sleep 300"), seen.report)
			}()
			seen.wait(t)
			cancel()
			return func() { <-done }
		}},
		{"a foreground command that ends", func(t *testing.T, f *fixture, seen *strayPID) func() {
			_, text := f.runCtx(context.Background(), t, "bash", fmt.Sprintf(`{"command":%q}`, stray), seen.report)
			seen.report(registry.Progress{Output: text})
			return func() {}
		}},
		{"a killed job", func(t *testing.T, f *fixture, seen *strayPID) func() {
			f.run(t, "bash", fmt.Sprintf(`{"command":%q,"run_in_background":true}`, stray+"; sleep 300"))
			output, _, _ := f.eventually(t, "job_1", func(output, _ string) bool { return strings.Contains(output, "stray=") })
			seen.report(registry.Progress{Output: output})
			f.run(t, "job_kill", `{"job_id":"job_1"}`)
			return func() {}
		}},
		{"a job when the Shell closes", func(t *testing.T, f *fixture, seen *strayPID) func() {
			f.run(t, "bash", fmt.Sprintf(`{"command":%q,"run_in_background":true}`, stray+"; sleep 300"))
			output, _, _ := f.eventually(t, "job_1", func(output, _ string) bool { return strings.Contains(output, "stray=") })
			seen.report(registry.Progress{Output: output})
			f.sh.Close()
			return func() {}
		}},
	}
	for _, subreaper := range []bool{false, true} {
		for _, tt := range tests {
			name := tt.name
			if subreaper {
				name += " under a child subreaper"
			}
			t.Run(name, func(t *testing.T) {
				if subreaper {
					// As dsh-acp runs: the stray is re-parented to us, and
					// once stopped it is reaped before the stop returns.
					setSubreaper(t, true)
					defer setSubreaper(t, false)
				}
				// Unconfined: the pids the command prints are this
				// process's (a sandboxed command has a PID namespace of
				// its own; see TestSandboxedStraysEndWithTheirCommand).
				f := newFixture(t, Options{SandboxPolicy: unconfined})
				seen := newStrayPID()
				wait := tt.run(t, f, seen)
				pid := seen.wait(t)
				wait()
				if !subreaper {
					waitProcessGone(t, pid) // init reaps it in its own time
					return
				}
				if st, ok := procfs.ReadStat(strconv.Itoa(pid)); ok {
					t.Errorf("stray %d is still there (state %c, parent %d)", pid, st.State, st.PPID)
				}
			})
		}
	}
}

// strayPID learns the stray's pid from the command's output.
type strayPID struct {
	mu    sync.Mutex
	out   strings.Builder
	found chan int
	once  sync.Once
}

func newStrayPID() *strayPID { return &strayPID{found: make(chan int, 1)} }

var strayLine = regexp.MustCompile(`stray=(\d+)\n`)

func (s *strayPID) report(p registry.Progress) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.WriteString(p.Output)
	if m := strayLine.FindStringSubmatch(s.out.String()); m != nil {
		pid, _ := strconv.Atoi(m[1])
		s.once.Do(func() { s.found <- pid })
	}
}

func (s *strayPID) wait(t *testing.T) int {
	t.Helper()
	select {
	case pid := <-s.found:
		s.found <- pid
		return pid
	case <-time.After(time.Minute):
		t.Fatal("the command never printed its stray's pid")
		return 0
	}
}

// Under a child subreaper (as dsh-acp runs), a process of the command
// whose parent dies first is re-parented to us; when it dies on its own
// before the command ends, it is a zombie of ours, and the command's end
// reaps it.
func TestAdoptedZombiesAreReaped(t *testing.T) {
	setSubreaper(t, true)
	defer setSubreaper(t, false)
	f := newFixture(t, Options{SandboxPolicy: unconfined}) // the pids are this process's
	// The orphan waits until its parent (the subshell, $BASHPID) has gone,
	// then exits; the command waits until the orphan is our zombie.
	const command = `(sh -c 'while [ "$(cut -d" " -f4 /proc/$$/stat)" = "$1" ]; do sleep 0.01; done' sh "$BASHPID" & echo $! > orphan.pid); ` +
		`o=$(cat orphan.pid); until [ "$(cut -d' ' -f3,4 /proc/$o/stat 2>/dev/null)" = "Z $PPID" ]; do sleep 0.01; done; echo "orphan=$o"`
	r, text := f.run(t, "bash", fmt.Sprintf(`{"command":%q}`, command))
	m := regexp.MustCompile(`orphan=(\d+)\n`).FindStringSubmatch(text)
	if r.IsError || m == nil {
		t.Fatalf("the command failed: %s", text)
	}
	if st, ok := procfs.ReadStat(m[1]); ok {
		t.Errorf("the orphan %s is still there (state %c, parent %d)", m[1], st.State, st.PPID)
	}
}

// setSubreaper makes the test process a child subreaper, or stops it
// being one.
func setSubreaper(t *testing.T, on bool) {
	t.Helper()
	const prSetChildSubreaper = 36
	arg := uintptr(0)
	if on {
		arg = 1
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, arg, 0); errno != 0 {
		t.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", errno)
	}
}
