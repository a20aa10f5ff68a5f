package shell

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/registry"
)

// These tests hold on every platform: they run the test binary as the
// shell (fakeShell), so they need no bash, and check through the
// platform's own process table (processGone) that nothing a command
// started outlives it: on Unix its process group, on Windows its Job
// Object.

// newTreeFixture is a fixture whose commands run unconfined with the
// fake shell.
func newTreeFixture(t *testing.T) *fixture {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeShellVar, "1")
	return newFixture(t, Options{Shell: self, Sandbox: theSandbox(), SandboxPolicy: unconfined})
}

// childPid is the pid a `child` statement of the fake shell printed.
func childPid(t *testing.T, text string) int {
	t.Helper()
	m := regexp.MustCompile(`pid=(\d+)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no pid in %q", text)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// waitProcessGone fails the test unless process pid comes to be gone
// within hangGuard.
func waitProcessGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs after %v", pid, hangGuard)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestTreeExitAndOutput(t *testing.T) {
	f := newTreeFixture(t)
	for _, tt := range []struct{ script, want string }{
		{"print hello", "hello\n"},
		{"print oops ; exit 3", "oops\n\n[exit code: 3]"},
	} {
		r, text := f.run(t, "bash", fmt.Sprintf(`{"command":%q}`, tt.script))
		if r.IsError || normalizeNewlines(text) != tt.want {
			t.Errorf("%s: content %q (isError %v), want %q", tt.script, text, r.IsError, tt.want)
		}
	}
}

// TestTreeStopsWhatTheCommandLeft: a command that exits leaving a
// background child behind returns only once the child is gone.
func TestTreeStopsWhatTheCommandLeft(t *testing.T) {
	f := newTreeFixture(t)
	_, text := f.run(t, "bash", `{"command":"child ; exit 0"}`)
	waitProcessGone(t, childPid(t, text))
}

// TestTreeTimeoutKillsEverything: a timeout kills the shell and its
// child; the result says it timed out and was killed.
func TestTreeTimeoutKillsEverything(t *testing.T) {
	f := newTreeFixture(t)
	seen := &progress{}
	f.clockAfter(seen, "pid=")
	r, text := f.runCtx(context.Background(), t, "bash", `{"command":"child ; hang","timeout":100}`, seen.add)
	if r.IsError || !strings.Contains(text, "[timed out after 100ms]") || !strings.Contains(text, "[killed by signal: ") {
		t.Errorf("content %q (isError %v): want a timeout and a kill", text, r.IsError)
	}
	waitProcessGone(t, f.pgid(t))
	waitProcessGone(t, childPid(t, text))
}

// TestTreeCancelKillsEverything: cancelling the call kills the shell and
// its child before the call returns.
func TestTreeCancelKillsEverything(t *testing.T) {
	f := newTreeFixture(t)
	seen := &progress{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string, 1)
	go func() {
		r, text := f.runCtx(ctx, t, "bash", `{"command":"child ; hang"}`, seen.add)
		if r.Code() != registry.CodeAborted {
			t.Errorf("code %q, want %s; content %q", r.Code(), registry.CodeAborted, text)
		}
		done <- text
	}()
	seen.waitFor(t, "child pid", printed("pid="))
	cancel()
	<-done
	waitProcessGone(t, f.pgid(t))
	waitProcessGone(t, childPid(t, strings.Join(seen.snapshot(), "")))
}

// TestTreeCloseKillsBackgroundJobs: closing the Shell kills a background
// job's shell and its child.
func TestTreeCloseKillsBackgroundJobs(t *testing.T) {
	f := newTreeFixture(t)
	if r, text := f.run(t, "bash", `{"command":"child ; hang","run_in_background":true}`); r.IsError {
		t.Fatalf("start: %q", text)
	}
	shellPid := f.pgid(t)
	var out string
	deadline := time.Now().Add(hangGuard)
	for !strings.Contains(out, "pid=") {
		if time.Now().After(deadline) {
			t.Fatalf("the job printed no pid: %q", out)
		}
		_, text := f.run(t, "job_output", `{"job_id":"job_1"}`)
		out += text
		time.Sleep(5 * time.Millisecond)
	}
	if err := f.sh.Close(); err != nil {
		t.Fatal(err)
	}
	waitProcessGone(t, shellPid)
	waitProcessGone(t, childPid(t, out))
}

// normalizeNewlines turns CRLF into LF.
func normalizeNewlines(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
