//go:build unix

package shell

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
)

// Cancelling the call kills the command's whole process group: the call
// fails with ABORTED carrying the output so far, and the shell
// and both of its children are gone. How fast is a benchmark's business;
// here they must go, and the call must not wait for the sleeps to end.
func TestBashCancelKillsTheWholeGroup(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan pipeline.Result, 1)
	go func() {
		r, _ := f.runCtx(ctx, t, "bash", `{"command":"echo started; sleep 300 & sleep 300; wait"}`, nil)
		results <- r
	}()
	pgid := f.pgid(t)
	waitMembers(t, pgid, 3) // bash and both sleeps are running

	cancel()
	var r pipeline.Result
	select {
	case r = <-results:
	case <-time.After(hangGuard):
		t.Fatalf("the call had not returned %v after the cancellation", hangGuard)
	}
	if !r.IsError || r.Code() != registry.CodeAborted {
		t.Fatalf("result: isError %v, code %q, want %s", r.IsError, r.Code(), registry.CodeAborted)
	}
	if !strings.Contains(r.Error.Message, "output so far:\nstarted\n") {
		t.Errorf("the failure does not carry the output so far: %q", r.Error.Message)
	}
	waitGone(t, pgid)
	// The brief's check: once init has reaped the dead children, the
	// group id is free. Reaping by init takes its own time.
	deadline := time.Now().Add(hangGuard)
	for !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
		if time.Now().After(deadline) {
			t.Fatalf("kill(-%d, 0) does not answer ESRCH after %v", pgid, hangGuard)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBashCancelledBeforeStart(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, _ := f.runCtx(ctx, t, "bash", `{"command":"echo never"}`, nil)
	if !r.IsError {
		t.Fatal("a cancelled call succeeded")
	}
	select {
	case pgid := <-f.pgids:
		t.Errorf("a command started (group %d)", pgid)
	default:
	}
}

func TestCloseStopsForegroundCommands(t *testing.T) {
	f := newFixture(t, Options{})
	results := make(chan pipeline.Result, 1)
	go func() {
		r, _ := f.run(t, "bash", `{"command":"sleep 300"}`)
		results <- r
	}()
	pgid := f.pgid(t)
	if err := f.sh.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pgid)
	if r := <-results; r.Code() != registry.CodeAborted {
		t.Errorf("code = %q, want %s", r.Code(), registry.CodeAborted)
	}
	if r, _ := f.run(t, "bash", `{"command":"true"}`); r.Code() != CodeClosed {
		t.Errorf("after Close: code = %q, want %s", r.Code(), CodeClosed)
	}
}

// waitMembers waits until group pgid has n live processes.
func waitMembers(t *testing.T, pgid, n int) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for countMembers(pgid) < n {
		if time.Now().After(deadline) {
			t.Fatalf("group %d has %d live processes, want %d", pgid, countMembers(pgid), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// countMembers counts the live processes of group pgid in /proc.
func countMembers(pgid int) int {
	n := 0
	for _, pid := range procfs.PIDs() {
		if st, ok := procfs.ReadStat(pid); ok && st.PGRP == pgid && st.State != 'Z' {
			n++
		}
	}
	return n
}
