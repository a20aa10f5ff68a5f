package shell

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/pipeline"
)

// Cancelling the call kills the command's whole process group: the shell
// and both of its children are gone within a second, and the call fails
// with TOOL_ABORTED (S20).
func TestBashCancelKillsTheWholeGroup(t *testing.T) {
	f := newFixture(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan pipeline.Result, 1)
	go func() {
		r, _ := f.runCtx(ctx, t, "bash", `{"command":"echo started; sleep 30 & sleep 30; wait"}`, nil)
		results <- r
	}()
	pgid := f.pgid(t)
	waitMembers(t, pgid, 3) // bash and both sleeps are running

	cancelled := time.Now()
	cancel()
	waitGone(t, pgid, time.Second)
	r := <-results
	if d := time.Since(cancelled); d > time.Second {
		t.Errorf("the call returned %v after the cancellation", d)
	}
	if !r.IsError || r.Code() != CodeAborted {
		t.Fatalf("result: isError %v, code %q, want %s", r.IsError, r.Code(), CodeAborted)
	}
	if !strings.Contains(r.Error.Message, "output so far:\nstarted\n") {
		t.Errorf("the failure does not carry the output so far: %q", r.Error.Message)
	}
	// The brief's check: once init has reaped the dead children, the
	// group id is free. Reaping by init can lag, so wait a little longer.
	deadline := time.Now().Add(5 * time.Second)
	for !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH) {
		if time.Now().After(deadline) {
			t.Fatalf("kill(-%d, 0) does not answer ESRCH", pgid)
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
		r, _ := f.run(t, "bash", `{"command":"sleep 30"}`)
		results <- r
	}()
	pgid := f.pgid(t)
	if err := f.sh.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pgid, time.Second)
	if r := <-results; r.Code() != CodeAborted {
		t.Errorf("code = %q, want %s", r.Code(), CodeAborted)
	}
	if r, _ := f.run(t, "bash", `{"command":"true"}`); r.Code() != CodeClosed {
		t.Errorf("after Close: code = %q, want %s", r.Code(), CodeClosed)
	}
}

// waitMembers waits until group pgid has n live processes.
func waitMembers(t *testing.T, pgid, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
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
	for _, pid := range procPIDs() {
		if st, ok := procStat(pid); ok && st.pgrp == pgid && st.state != 'Z' {
			n++
		}
	}
	return n
}
