//go:build unix

package release

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// installLauncher lays out what npm installs: the launcher, and (unless
// binary is "") the host's platform package holding binary, a shell
// script. It returns the launcher's path.
func installLauncher(t *testing.T, binary string) string {
	t.Helper()
	host, ok := HostTarget(runtime.GOOS, runtime.GOARCH)
	if !ok {
		t.Skipf("no release target for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	modules := filepath.Join(t.TempDir(), "node_modules")
	launcher := filepath.Join(modules, NPMLauncher, "bin", "dsh-acp.js")
	writeFile(t, launcher, launcherJS, 0o755)
	if binary != "" {
		pkg := filepath.Join(modules, filepath.FromSlash(host.NPMPackage()))
		writeFile(t, filepath.Join(pkg, "package.json"), []byte(`{"name":"`+host.NPMPackage()+`","version":"0.0.0"}`), 0o644)
		writeFile(t, filepath.Join(pkg, "bin", host.Executable()), []byte("#!/bin/sh\n"+binary), 0o755)
	}
	return launcher
}

func writeFile(t testing.TB, path string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
}

func node(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on the PATH (the npm launcher is JavaScript)")
	}
	return path
}

// TestLauncherExits: the launcher passes the arguments on and ends as the
// binary ended: its exit status, or the signal that killed it.
func TestLauncherExits(t *testing.T) {
	tests := []struct {
		name, binary         string
		wantCode             int
		wantSignal           syscall.Signal
		wantStdout, wantErrs string
	}{
		{name: "status", binary: `printf '%s|' "$@"; exit 7`, wantCode: 7, wantStdout: "--version|a b|"},
		{name: "success", binary: `exit 0`},
		{name: "killed by a signal", binary: `kill -TERM $$`, wantSignal: syscall.SIGTERM},
		{name: "no platform package", wantCode: 1, wantErrs: "is not installed, so there is no dsh-acp binary for " + runtime.GOOS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), node(t), installLauncher(t, tt.binary), "--version", "a b")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			status := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if tt.wantSignal != 0 {
				if !status.Signaled() || status.Signal() != tt.wantSignal {
					t.Fatalf("launcher ended %v, want killed by %v", cmd.ProcessState, tt.wantSignal)
				}
			} else if status.Signaled() || status.ExitStatus() != tt.wantCode {
				t.Fatalf("launcher ended %v, want exit %d (stderr %q)", cmd.ProcessState, tt.wantCode, stderr.String())
			}
			if stdout.String() != tt.wantStdout || !strings.Contains(stderr.String(), tt.wantErrs) {
				t.Errorf("stdout %q, stderr %q; want %q and a stderr saying %q", stdout.String(), stderr.String(), tt.wantStdout, tt.wantErrs)
			}
		})
	}
}

// TestLauncherForwardsSignals: a signal sent to the launcher alone (as an
// editor stops its agent) reaches the binary, once.
func TestLauncherForwardsSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			// The script notes each signal it gets and leaves when stdin
			// ends (a trapped signal interrupts wait, not read).
			binary := `n=0
trap 'n=$((n+1)); echo "got $n"' TERM INT HUP
echo ready
exec 3<&0
cat <&3 >/dev/null & pid=$!
while kill -0 $pid 2>/dev/null; do wait $pid; done
exit $((10+n))
`
			cmd := exec.CommandContext(t.Context(), node(t), installLauncher(t, binary))
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(out)
			expect := func(want string) {
				t.Helper()
				if !lines.Scan() || lines.Text() != want {
					t.Fatalf("binary said %q (%v), want %q", lines.Text(), lines.Err(), want)
				}
			}
			expect("ready")
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			expect("got 1")
			stdin.Close()
			for lines.Scan() {
				t.Errorf("binary also said %q", lines.Text())
			}
			err = cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != 11 {
				t.Errorf("launcher ended %v (%v), want exit 11: the binary saw one signal", cmd.ProcessState, err)
			}
		})
	}
}
