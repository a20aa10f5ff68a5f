//go:build linux

package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The variables that make the test binary a dialing or loopback program
// (see TestMain).
const (
	dialVar     = "SANDBOX_TEST_DIAL"
	dialUnixVar = "SANDBOX_TEST_DIAL_UNIX"
	loopbackVar = "SANDBOX_TEST_LOOPBACK"
)

// theSandbox is the tests' Sandbox, found once (it starts processes).
var theSandbox = sync.OnceValue(New)

// variants are the sandboxes the behaviour tests run under: everything the
// kernel offers, and Landlock alone (as where no namespace can be made),
// so both ways of enforcing are tested on this machine.
func variants(t *testing.T) map[string]*Sandbox {
	t.Helper()
	full := theSandbox()
	st := full.Status()
	if !st.Available() {
		t.Skipf("this kernel offers no sandbox: %s", st.Summary())
	}
	if !st.PID || !st.Mount || !st.Net {
		t.Logf("namespaces missing here: %v", st.Missing)
	}
	return map[string]*Sandbox{
		"namespaces":    full,
		"landlock only": {exe: selfExe, status: Status{Landlock: st.Landlock}},
	}
}

// outcome is what a confined command did.
type outcome struct {
	stdout, stderr string
	exit           Exit
}

// run runs script with bash -c under p in s, in dir, with env.
func run(t *testing.T, s *Sandbox, p Policy, dir, script string, env ...string) outcome {
	t.Helper()
	cmd := exec.Command("/bin/bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	c, err := s.Confine(cmd, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		c.Discard()
		t.Fatal(err)
	}
	c.Started()
	_ = cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what the command left running
	return outcome{stdout.String(), stderr.String(), c.Exit(cmd.ProcessState)}
}

// scene is a workspace, a directory outside every write root, and a fake
// home with a key, a token and a cache, as the tests' policy sees them.
type scene struct {
	ws, outside, home, tmp string
	policy                 Policy
}

func newScene(t *testing.T) scene {
	t.Helper()
	sc := scene{ws: t.TempDir(), outside: t.TempDir(), home: t.TempDir(), tmp: t.TempDir()}
	for path, content := range map[string]string{
		".ssh/id_ed25519":        "PRIVATE KEY",
		".config/gh/hosts.yml":   "oauth_token: gho_secret",
		".netrc":                 "machine example.com password netrc_secret",
		"notes.txt":              "readable",
		".cache/go-build/README": "cache",
	} {
		full := filepath.Join(sc.home, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(sc.ws, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	loc := Locations{Home: sc.home, Getenv: func(string) string { return "" }}
	sc.policy = Policy{
		Write:    append([]string{sc.ws, sc.tmp, "/dev/null"}, loc.Caches()...),
		DenyRead: loc.Credentials(),
		ReadOnly: []string{filepath.Join(sc.ws, ".git")},
	}
	return sc
}

func TestConfinedFiles(t *testing.T) {
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			if err := os.WriteFile(filepath.Join(sc.outside, "kept"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				name, script string
				ok           bool
			}{
				{"a write in the workspace", "echo x > " + sc.ws + "/file && mkdir " + sc.ws + "/d && mv " + sc.ws + "/file " + sc.ws + "/d/", true},
				{"a write in the temporary directory", "echo x > " + sc.tmp + "/file", true},
				{"a write in a cache", "echo x > " + sc.home + "/.cache/go-build/entry", true},
				{"a write to /dev/null", "echo x > /dev/null", true},
				{"a read of the home directory", "cat " + sc.home + "/notes.txt && ls " + sc.home, true},
				{"a read of the system", "cat /etc/passwd > /dev/null && ls /", true},
				{"a write outside the write roots", "echo x > " + sc.outside + "/file", false},
				{"a directory made outside", "mkdir " + sc.outside + "/d", false},
				{"a removal outside", "rm " + sc.outside + "/kept", false},
				{"a read of a key", "cat " + sc.home + "/.ssh/id_ed25519", false},
				{"a read of a token", "cat " + sc.home + "/.config/gh/hosts.yml", false},
				{"a key copied out", "cp " + sc.home + "/.ssh/id_ed25519 " + sc.ws + "/", false},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					o := run(t, s, sc.policy, sc.ws, tt.script)
					if ok := o.exit == (Exit{}); ok != tt.ok {
						t.Errorf("%s: exit %+v, want success %v; stderr %q", tt.script, o.exit, tt.ok, o.stderr)
					}
					if strings.Contains(o.stdout, "PRIVATE KEY") || strings.Contains(o.stdout, "gho_secret") {
						t.Errorf("a secret was read: %q", o.stdout)
					}
				})
			}
			if _, err := os.Stat(filepath.Join(sc.outside, "file")); err == nil {
				t.Error("a file was written outside the write roots")
			}
		})
	}
}

// A write root that holds a credential location is writable around it,
// never inside it: a workspace opened at the home directory cannot plant
// an authorized_keys.
func TestWriteRootAroundACredentialLocation(t *testing.T) {
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			p := Policy{Write: []string{sc.home}, DenyRead: []string{filepath.Join(sc.home, ".ssh")}}
			if o := run(t, s, p, sc.home, "echo x > .ssh/authorized_keys"); o.exit == (Exit{}) {
				t.Error("a file was written inside the denied .ssh")
			}
			if o := run(t, s, p, sc.home, "echo x > .cache/x"); o.exit != (Exit{}) {
				t.Errorf("a write beside .ssh failed: %q", o.stderr)
			}
		})
	}
}

// Where a mount namespace can be made, a credential directory shows
// empty and a credential file empty and unreadable: not even the names
// inside ~/.ssh can be listed. With Landlock alone the names stay
// listable (its listing right on the home directory holds below it), the
// contents unreadable.
func TestCredentialLocationsAreHidden(t *testing.T) {
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			listing := run(t, s, sc.policy, sc.ws, "ls -a "+sc.home+"/.ssh")
			if hidden := !strings.Contains(listing.stdout, "id_ed25519"); hidden != s.status.Mount {
				t.Errorf("ls ~/.ssh: %q (stderr %q), want the key's name hidden: %v", listing.stdout, listing.stderr, s.status.Mount)
			}
			for _, script := range []string{
				"cat " + sc.home + "/.ssh/id_ed25519",
				"cat " + sc.home + "/.netrc",
				"cat " + sc.home + "/.config/gh/hosts.yml",
			} {
				if o := run(t, s, sc.policy, sc.ws, script); o.exit == (Exit{}) || strings.Contains(o.stdout, "secret") || strings.Contains(o.stdout, "KEY") {
					t.Errorf("%s: exit %+v, stdout %q", script, o.exit, o.stdout)
				}
			}
			if s.status.Mount {
				o := run(t, s, sc.policy, sc.ws, "stat -c %s "+sc.home+"/.netrc; touch "+sc.home+"/.ssh/planted")
				if strings.TrimSpace(strings.SplitN(o.stdout, "\n", 2)[0]) != "0" || o.exit == (Exit{}) {
					t.Errorf("the stand-ins: stdout %q, exit %+v (stderr %q)", o.stdout, o.exit, o.stderr)
				}
			}
			if _, err := os.Stat(filepath.Join(sc.home, ".ssh", "planted")); err == nil {
				t.Error("a file was planted in ~/.ssh")
			}
		})
	}
}

// A denied Unix socket (a container daemon's, an agent's) cannot be
// connected to where a mount namespace can be made: an empty file covers
// it. With Landlock alone (ABI below 9) it stays reachable.
func TestDeniedSocketIsUnreachable(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			path := listenUnix(t, filepath.Join(sc.tmp, "docker.sock"))
			p := sc.policy
			p.Sockets = []string{path}
			o := run(t, s, p, sc.ws, self, dialUnixVar+"="+path)
			if connected := o.exit == (Exit{}); connected == s.status.Mount {
				t.Errorf("connected %v, want %v: %q %q", connected, !s.status.Mount, o.stdout, o.stderr)
			}
			// The socket's directory, a write root, stays one: an ssh
			// agent's socket lies in /tmp.
			if o := run(t, s, p, sc.ws, "echo x > "+sc.tmp+"/new"); o.exit != (Exit{}) {
				t.Errorf("a new file beside the socket: %q", o.stderr)
			}
			// An allowed socket beside it stays reachable.
			other := listenUnix(t, filepath.Join(sc.tmp, "other.sock"))
			if o := run(t, s, p, sc.ws, self, dialUnixVar+"="+other); o.exit != (Exit{}) {
				t.Errorf("an allowed socket was not reached: %q %q", o.stdout, o.stderr)
			}
		})
	}
}

// listenUnix listens on a Unix socket at path, until the test ends, and
// closes every connection it accepts; it returns path.
func listenUnix(t *testing.T, path string) string {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan struct{})
	go func() {
		defer close(served)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-served
	})
	return path
}

// The .git directories are read-only where a mount namespace can be
// made.
func TestGitDirectoryIsReadOnly(t *testing.T) {
	s := theSandbox()
	if !s.Status().Mount {
		t.Skipf("no mount namespace on this kernel: %v", s.Status().Missing)
	}
	sc := newScene(t)
	o := run(t, s, sc.policy, sc.ws, "echo '[core] fsmonitor = evil' > .git/config")
	if o.exit == (Exit{}) || !strings.Contains(o.stderr, "Read-only file system") {
		t.Errorf("writing .git/config: exit %+v, stderr %q", o.exit, o.stderr)
	}
	if o := run(t, s, sc.policy, sc.ws, "echo x > file"); o.exit != (Exit{}) {
		t.Errorf("a write beside .git failed: %q", o.stderr)
	}
}

// The command cannot read the environment or memory of the process that
// started it: with a PID namespace it does not see it at all, with
// Landlock alone the kernel refuses (Landlock scopes ptrace).
func TestParentEnvironmentIsHidden(t *testing.T) {
	t.Setenv("SANDBOX_TEST_SECRET", "hunter2")
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			self := os.Getpid()
			o := run(t, s, sc.policy, sc.ws, fmt.Sprintf("cat /proc/%d/environ; cat /proc/%d/cmdline; head -c 16 /proc/%d/mem; kill -CONT %d", self, self, self, self))
			if strings.Contains(o.stdout, "hunter2") || strings.Contains(o.stdout, "PATH=") {
				t.Errorf("the parent's environment was read: %q", o.stdout)
			}
			// Without a PID namespace the command line stays readable
			// (as to every process); with one the parent is not there.
			if s.status.PID && s.status.Mount && strings.Contains(o.stdout, "test.") {
				t.Errorf("the parent's command line was read: %q", o.stdout)
			}
			if o.exit == (Exit{}) {
				t.Errorf("signalling the parent succeeded; stderr %q", o.stderr)
			}
		})
	}
}

func TestConfinedNetwork(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	addr := l.Addr().(*net.TCPAddr)
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	datagrams := make(chan string, 16)
	go func() {
		buf := make([]byte, 64)
		for {
			n, _, err := udp.ReadFrom(buf)
			if err != nil {
				return
			}
			datagrams <- string(buf[:n])
		}
	}()
	udpPort := udp.LocalAddr().(*net.UDPAddr).Port
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			for _, script := range []string{
				fmt.Sprintf("echo > /dev/tcp/127.0.0.1/%d", addr.Port),
				fmt.Sprintf("%s=%s %s", dialVar, addr, self),
			} {
				if o := run(t, s, sc.policy, sc.ws, script); o.exit == (Exit{}) {
					t.Errorf("%s connected: %q", script, o.stdout)
				}
			}
			// A datagram is not stopped by Landlock's TCP rules: without a
			// network namespace, seccomp refuses the socket.
			if o := run(t, s, sc.policy, sc.ws, fmt.Sprintf("echo leak > /dev/udp/127.0.0.1/%d", udpPort)); o.exit == (Exit{}) && !s.status.Net {
				t.Errorf("a UDP socket was opened: %q", o.stderr)
			}
			// With the network allowed a datagram goes out, and it must be
			// the first to arrive.
			if o := run(t, s, Policy{Network: true}, sc.ws, fmt.Sprintf("echo sent > /dev/udp/127.0.0.1/%d", udpPort)); o.exit != (Exit{}) {
				t.Errorf("with the network allowed, UDP failed: %q", o.stderr)
			} else if got := <-datagrams; got != "sent\n" {
				t.Errorf("the UDP listener outside the sandbox got %q first", got)
			}
			select {
			case <-accepted:
				t.Fatal("the listener outside the sandbox accepted a connection")
			default:
			}
			allowed := sc.policy
			allowed.Network = true
			if o := run(t, s, allowed, sc.ws, fmt.Sprintf("echo > /dev/tcp/127.0.0.1/%d", addr.Port)); o.exit != (Exit{}) {
				t.Errorf("with the network allowed the connection failed: %q", o.stderr)
			} else {
				<-accepted // the command connected: the listener has it
			}
		})
	}
	// With a network namespace the command has a loopback of its own.
	if s := theSandbox(); s.Status().Net {
		sc := newScene(t)
		if o := run(t, s, sc.policy, sc.ws, self, loopbackVar+"=1"); o.exit != (Exit{}) {
			t.Errorf("a server on the command's own loopback was not reached: %q", o.stdout)
		}
	}
}

func TestExitIsReportedFaithfully(t *testing.T) {
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			tests := []struct {
				script string
				want   Exit
			}{
				{"true", Exit{}},
				{"exit 7", Exit{Code: 7}},
				{"kill -TERM $$", Exit{Signal: syscall.SIGTERM}},
				{"kill -KILL $$", Exit{Signal: syscall.SIGKILL}},
				{"sleep 300 >/dev/null 2>&1 & exit 3", Exit{Code: 3}},
			}
			for _, tt := range tests {
				if o := run(t, s, sc.policy, sc.ws, tt.script); o.exit != tt.want {
					t.Errorf("%s: exit %+v, want %+v (stderr %q)", tt.script, o.exit, tt.want, o.stderr)
				}
			}
		})
	}
}

// A policy path that is not absolute is refused before anything starts.
func TestConfineRefusesRelativePaths(t *testing.T) {
	s := theSandbox()
	if !s.Status().Available() {
		t.Skip("no sandbox on this kernel")
	}
	cmd := exec.Command("/bin/true")
	if _, err := s.Confine(cmd, Policy{Write: []string{"relative"}}); err == nil {
		t.Error("a relative write root was accepted")
	}
	if _, err := s.Confine(exec.Command("/nonexistent/program"), Policy{}); err == nil {
		t.Error("a missing program was accepted")
	}
}

// The command never holds the capabilities that reach past the sandbox,
// not even as root (they are out of its bounding set), and none at all
// when dsh-acp is not root (the helper needed some inside its user
// namespace; they are cleared, and no_new_privs keeps it from gaining
// any).
func TestCommandHoldsNoDangerousCapability(t *testing.T) {
	for name, s := range variants(t) {
		t.Run(name, func(t *testing.T) {
			sc := newScene(t)
			o := run(t, s, sc.policy, sc.ws, "grep -E '^Cap(Eff|Bnd|Amb):' /proc/self/status")
			caps := map[string]uint64{}
			for _, line := range strings.Split(strings.TrimSpace(o.stdout), "\n") {
				var name string
				var v uint64
				if _, err := fmt.Sscanf(line, "%s %x", &name, &v); err == nil {
					caps[strings.TrimSuffix(name, ":")] = v
				}
			}
			if len(caps) != 3 {
				t.Fatalf("capabilities = %q (stderr %q)", o.stdout, o.stderr)
			}
			for _, c := range droppedCaps {
				if (os.Geteuid() == 0 && caps["CapBnd"]&(1<<c) != 0) || caps["CapEff"]&(1<<c) != 0 {
					t.Errorf("the command can gain capability %d: %q", c, o.stdout)
				}
			}
			if caps["CapAmb"] != 0 || (os.Geteuid() != 0 && caps["CapEff"] != 0) {
				t.Errorf("the command holds capabilities: %q", o.stdout)
			}
		})
	}
}
