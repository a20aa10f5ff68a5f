//go:build linux

package shell

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// A sandboxed command that writes outside the write roots fails, and its
// result says what the sandbox blocked and how to ask to run it outside,
// before the exit status; a write in the workspace or the temporary
// directory goes through.
func TestSandboxBlocksAWriteOutsideAndSaysSo(t *testing.T) {
	outside := t.TempDir()
	f := newFixture(t, Options{})
	f.sh.opts.SandboxPolicy = func(string) (sandbox.Policy, bool) { return sandbox.Policy{Write: []string{f.dir, "/dev/null"}}, true }
	target := filepath.Join(outside, "planted")
	_, text := f.run(t, "bash", fmt.Sprintf(`{"command":"echo x > %s"}`, target))
	want := fmt.Sprintf("[sandbox: blocked changing %s (outside the workspace, the temporary directory and the caches); if the command needs it, run it again with sandbox: false, which asks the user]\n[exit code: 1]", target)
	if !strings.HasSuffix(text, want) {
		t.Errorf("result = %q, want it to end in %q", text, want)
	}
	if _, err := os.Stat(target); err == nil {
		t.Error("the file was written outside the workspace")
	}
	if _, text := f.run(t, "bash", `{"command":"echo x > inside && cat inside"}`); text != "x\n" {
		t.Errorf("a write in the workspace: %q", text)
	}
}

// A background job the sandbox blocked says so too, once it has ended:
// the marker comes after its output and before its state.
func TestBackgroundJobSaysWhatTheSandboxBlocked(t *testing.T) {
	outside := t.TempDir()
	f := newFixture(t, Options{})
	f.sh.opts.SandboxPolicy = func(string) (sandbox.Policy, bool) { return sandbox.Policy{Write: []string{f.dir, "/dev/null"}}, true }
	target := filepath.Join(outside, "planted")
	f.run(t, "bash", fmt.Sprintf(`{"command":"echo trying; echo x > %s","run_in_background":true}`, target))
	_, _, last := f.eventually(t, "job_1", func(_, state string) bool { return state != "running" })
	want := fmt.Sprintf("\n[sandbox: blocked changing %s (outside the workspace, the temporary directory and the caches); if the command needs it, run it again with sandbox: false, which asks the user]\n[job_1: exited with code 1]", target)
	if !strings.HasSuffix(last, want) {
		t.Errorf("the last job_output = %q, want it to end in %q", last, want)
	}
	// A job that succeeds, or fails for its own reasons, carries none.
	f.run(t, "bash", `{"command":"echo x > inside; exit 3","run_in_background":true}`)
	if _, _, last := f.eventually(t, "job_2", func(_, state string) bool { return state != "running" }); strings.Contains(last, "[sandbox:") {
		t.Errorf("job_2: %q", last)
	}
}

// The policy is read for every command: a switch to read-only holds from
// the next command on, and under read-only a write in the workspace is
// refused.
func TestSandboxPolicyIsReadPerCommand(t *testing.T) {
	f := newFixture(t, Options{})
	var readOnly atomic.Bool
	tmp := t.TempDir()
	f.sh.opts.SandboxPolicy = func(string) (sandbox.Policy, bool) {
		if readOnly.Load() {
			return sandbox.Policy{Write: []string{tmp, "/dev/null"}}, true
		}
		return sandbox.Policy{Write: []string{f.dir, tmp, "/dev/null"}}, true
	}
	if _, text := f.run(t, "bash", `{"command":"echo x > a"}`); text != "(no output)" {
		t.Fatalf("workspace-write: %q", text)
	}
	readOnly.Store(true)
	_, text := f.run(t, "bash", `{"command":"echo x > b"}`)
	if !strings.Contains(text, "Permission denied") || !strings.HasSuffix(text, "[exit code: 1]") {
		t.Errorf("read-only: %q", text)
	}
	if _, err := os.Stat(filepath.Join(f.dir, "b")); err == nil {
		t.Error("read-only let a workspace write through")
	}
	if _, text := f.run(t, "bash", fmt.Sprintf(`{"command":"echo x > %s/c && echo ok"}`, tmp)); text != "ok\n" {
		t.Errorf("read-only refused the temporary directory: %q", text)
	}
}

// A connection to a server outside the sandbox fails and the result says
// the network was blocked; the server sees nothing.
func TestSandboxBlocksTheNetworkAndSaysSo(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var accepted atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	defer l.Close()
	f := newFixture(t, Options{})
	port := l.Addr().(*net.TCPAddr).Port
	_, text := f.run(t, "bash", fmt.Sprintf(`{"command":"echo hi > /dev/tcp/127.0.0.1/%d"}`, port))
	if !strings.Contains(text, "\n[sandbox: blocked the network") || !strings.HasSuffix(text, "[exit code: 1]") {
		t.Errorf("result = %q", text)
	}
	if accepted.Load() != 0 {
		t.Error("the server outside the sandbox was reached")
	}
}

// sandbox: false runs the command outside the sandbox (the permission
// policy has asked the user by then).
func TestSandboxFalseRunsOutside(t *testing.T) {
	outside := t.TempDir()
	f := newFixture(t, Options{})
	f.sh.opts.SandboxPolicy = func(string) (sandbox.Policy, bool) { return sandbox.Policy{Write: []string{f.dir}}, true }
	target := filepath.Join(outside, "allowed")
	if _, text := f.run(t, "bash", fmt.Sprintf(`{"command":"echo x > %s && echo ok","sandbox":false}`, target)); text != "ok\n" {
		t.Errorf("sandbox: false: %q", text)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the escalated write did not happen: %v", err)
	}
}

// The helper leads the command's session and process group, and the
// shell runs inside them, so a signal to the group reaches it.
func TestSandboxedCommandLeadsItsGroupThroughTheHelper(t *testing.T) {
	f := newFixture(t, Options{})
	r, text := f.run(t, "bash", `{"command":"ps -o pgid=,sid= -p $$; echo $PPID"}`)
	ids := strings.Fields(text)
	if r.IsError || len(ids) != 3 || ids[0] != ids[2] || ids[1] != ids[2] {
		t.Errorf("pgid, sid, parent = %q: want the parent (the helper) to lead both", ids)
	}
}

// What a sandboxed command leaves running, in its group or out of it
// (setsid), ends with it: the PID namespace dies with its init.
func TestSandboxedStraysEndWithTheirCommand(t *testing.T) {
	f := newFixture(t, Options{})
	mark := "DSH_TEST_STRAY=" + t.Name()
	command := fmt.Sprintf("%s setsid sleep 300 & %s sleep 300 & echo started; until [ -e gate ]; do sleep 0.01; done", mark, mark)
	seen := &progress{}
	done := make(chan string, 1)
	go func() {
		_, text := f.runCtx(context.Background(), t, "bash", fmt.Sprintf(`{"command":%q}`, command), seen.add)
		done <- text
	}()
	seen.waitFor(t, "start", printed("started"))
	var strays []int
	deadline := time.Now().Add(hangGuard)
	for strays = pidsWithEnv(mark); len(strays) < 2; strays = pidsWithEnv(mark) {
		if time.Now().After(deadline) {
			t.Fatalf("the strays never showed: %v", strays)
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.openGate(t, "gate")
	if text := <-done; text != "started\n" {
		t.Errorf("result = %q", text)
	}
	for _, pid := range strays {
		waitProcessGone(t, pid)
	}
}

// pidsWithEnv lists the processes whose environment holds entry.
func pidsWithEnv(entry string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && strings.Contains("\x00"+string(data)+"\x00", "\x00"+entry+"\x00") {
			pids = append(pids, pid)
		}
	}
	return pids
}
