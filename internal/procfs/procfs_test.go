//go:build linux

package procfs_test

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/dsh-acp/dsh-acp/internal/procfs"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// TestReadStatOfThisProcess: /proc describes the test process as the
// system calls do, and lists it.
func TestReadStatOfThisProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	self := strconv.Itoa(os.Getpid())
	if !slices.Contains(procfs.PIDs(), self) {
		t.Fatalf("PIDs() does not list this process (%s)", self)
	}
	st, ok := procfs.ReadStat(self)
	if !ok {
		t.Fatal("ReadStat of this process failed")
	}
	pgrp, _ := syscall.Getpgid(0)
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	if errno != 0 {
		t.Fatalf("getsid: %v", errno)
	}
	want := procfs.Stat{State: st.State, PPID: os.Getppid(), PGRP: pgrp, Session: int(sid)}
	if st != want || !st.Live() {
		t.Fatalf("ReadStat(self) = %+v, want %+v and live", st, want)
	}
}

// TestReadStatOfNoProcess: a pid that names no process reads as absent.
func TestReadStatOfNoProcess(t *testing.T) {
	for _, pid := range []string{"0", "-1", "not-a-pid"} {
		if st, ok := procfs.ReadStat(pid); ok {
			t.Errorf("ReadStat(%q) = %+v, want nothing", pid, st)
		}
	}
}

// TestLive tells running processes from zombies and dead ones.
func TestLive(t *testing.T) {
	for state, want := range map[byte]bool{'R': true, 'S': true, 'D': true, 'T': true, 'Z': false, 'X': false} {
		if got := (procfs.Stat{State: state}).Live(); got != want {
			t.Errorf("Stat{State: %c}.Live() = %v, want %v", state, got, want)
		}
	}
}
