//go:build linux

package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// selfExe is the running program, whatever its file is now called.
const selfExe = "/proc/self/exe"

// New finds what the kernel lets the sandbox do, once: the Landlock ABI,
// and which namespaces a command can get (it starts the helper to try
// them). Where a piece is missing the Status says so; the Sandbox then
// does what is left.
func New() *Sandbox {
	s := &Sandbox{exe: selfExe}
	s.status.Landlock = landlockABI()
	if s.status.Landlock == 0 {
		s.status.Missing = append(s.status.Missing, "The kernel has no Landlock (it is older than 5.13 or started without it).")
		return s
	}
	s.status.User = os.Geteuid() != 0
	if err := s.probe(helperSpec{PID: true, Mount: true, Net: true}); err == nil {
		s.status.PID, s.status.Mount, s.status.Net = true, true, true
		return s
	}
	for _, try := range []struct {
		spec helperSpec
		name string
		have *bool
	}{
		{helperSpec{Mount: true}, "mount", &s.status.Mount},
		{helperSpec{Net: true}, "network", &s.status.Net},
	} {
		if err := s.probe(try.spec); err != nil {
			s.status.Missing = append(s.status.Missing, fmt.Sprintf("No %s namespace could be made (%v).", try.name, err))
			continue
		}
		*try.have = true
	}
	// A PID namespace is of use only with its own /proc, which needs a
	// mount namespace (and, without one, Landlock through the helper's
	// all-thread calls never completes).
	switch err := s.probe(helperSpec{PID: true, Mount: true}); {
	case !s.status.Mount:
		s.status.Missing = append(s.status.Missing, "No PID namespace: its own /proc needs a mount namespace.")
	case err != nil:
		s.status.Missing = append(s.status.Missing, fmt.Sprintf("No PID namespace with its own /proc could be made (%v).", err))
	default:
		s.status.PID = true
	}
	return s
}

// probe starts the helper in the namespaces of spec, to set them up and
// exit.
func (s *Sandbox) probe(spec helperSpec) error {
	spec.Probe = true
	arg, err := encodeSpec(spec)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.exe, helperMarker, arg)
	cmd.SysProcAttr = s.attr(spec)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return errors.New(strings.TrimPrefix(msg, "dsh-acp sandbox: "))
		}
		return err
	}
	return nil
}

// attr is the process attributes that start the helper in the
// namespaces of spec: inside a user namespace mapping our ids to
// themselves when we are not root.
func (s *Sandbox) attr(spec helperSpec) *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{}
	if spec.PID {
		attr.Cloneflags |= syscall.CLONE_NEWPID
	}
	if spec.Mount {
		attr.Cloneflags |= syscall.CLONE_NEWNS
	}
	if spec.Net {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	if s.status.User && attr.Cloneflags != 0 {
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Geteuid(), HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getegid(), HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
		// Our id is no root inside the namespace, so exec would drop the
		// capabilities the helper needs to mount and to bring lo up; it
		// keeps these, and clears them before the command runs.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_NET_ADMIN, unix.CAP_SETPCAP}
	}
	return attr
}

// confine is Confine once the policy has been checked.
func (s *Sandbox) confine(cmd *exec.Cmd, p Policy) (*Confined, error) {
	if len(cmd.ExtraFiles) > 0 {
		return nil, errors.New("sandbox: a confined command cannot take extra files")
	}
	spec := helperSpec{Policy: p, PID: s.status.PID && s.status.Mount, Mount: s.status.Mount, Net: s.status.Net && !p.Network}
	arg, err := encodeSpec(spec)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	attr := s.attr(spec)
	if cmd.SysProcAttr != nil {
		own := *cmd.SysProcAttr
		own.Cloneflags |= attr.Cloneflags
		own.UidMappings, own.GidMappings = attr.UidMappings, attr.GidMappings
		own.GidMappingsEnableSetgroups = attr.GidMappingsEnableSetgroups
		own.AmbientCaps = attr.AmbientCaps
		attr = &own
	}
	cmd.SysProcAttr = attr
	cmd.Args = append([]string{s.exe, helperMarker, arg, cmd.Path}, cmd.Args...)
	cmd.Path = s.exe
	cmd.ExtraFiles = []*os.File{w}
	return &Confined{report: exitReport{read: r, write: w}}, nil
}

func encodeSpec(spec helperSpec) (string, error) {
	data, err := json.Marshal(spec)
	if err != nil {
		return "", fmt.Errorf("sandbox: encoding the policy: %w", err)
	}
	return string(data), nil
}

// exitReport is the pipe on which the helper reports the command's wait
// status.
type exitReport struct {
	read, write *os.File
}

// started closes the parent's end and waits until the program runs: the
// helper, as init of a PID namespace, says so (statusReady); otherwise it
// execs the program, which closes the pipe. Either way the helper has set
// the sandbox up by then, and signals to the group reach the program.
func (e exitReport) started() {
	_ = e.write.Close()
	var ready [1]byte
	_, _ = e.read.Read(ready[:])
}

func (e exitReport) discard() {
	_ = e.write.Close()
	_ = e.read.Close()
}

// exit reads the report once the helper is gone (its end of the pipe is
// closed then; the command never had it).
func (e exitReport) exit(state *os.ProcessState) Exit {
	defer e.read.Close()
	data, err := io.ReadAll(e.read)
	if err != nil || len(data) == 0 {
		return ExitOf(state)
	}
	n, err := strconv.ParseUint(string(data), 10, 32)
	if err != nil {
		return ExitOf(state)
	}
	ws := syscall.WaitStatus(n)
	if ws.Signaled() {
		return Exit{Signal: ws.Signal()}
	}
	return Exit{Code: ws.ExitStatus()}
}
