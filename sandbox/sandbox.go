package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// helperMarker is the first argument that makes Main run the sandbox
// helper instead of the program.
const helperMarker = "__dsh_sandbox_helper__"

// ErrUnavailable is the error of Confine where the kernel offers no
// sandbox (Status.Available is false).
var ErrUnavailable = errors.New("sandbox: no kernel sandbox is available")

// Main runs the sandbox helper when this process was started as one, and
// then never returns; otherwise it returns at once. Call it first thing in
// main, and in TestMain of every package whose tests run sandboxed
// commands: the sandbox re-executes the running program as its helper.
func Main() {
	if len(os.Args) < 2 || os.Args[1] != helperMarker {
		return
	}
	os.Exit(runHelper(os.Args[2:]))
}

// Sandbox starts commands confined by the kernel. It is made once per
// process (New) and is safe for concurrent use.
type Sandbox struct {
	status Status
	// exe is the program started as the helper.
	exe string
}

// Status is what the sandbox can do on this machine.
func (s *Sandbox) Status() Status { return s.status }

// Confined is a command prepared by Confine. Call Started once the
// command has started (or failed to), and Exit with its reaped state to
// learn how the command itself ended.
type Confined struct {
	report exitReport
}

// Confine rewrites cmd, built as exec.Command(program, args...) with its
// Dir, Env, streams and SysProcAttr set, so that it runs program under p:
// cmd then starts the helper, which sets the sandbox up and runs program.
// The process cmd starts leads the command's processes: its pid is the
// process group (when cmd asks for Setsid or Setpgid) that signals go to,
// and it ends when program ends. It fails with ErrUnavailable where the
// kernel has no sandbox, and for a policy path that is not absolute.
func (s *Sandbox) Confine(cmd *exec.Cmd, p Policy) (*Confined, error) {
	if !s.status.Available() {
		return nil, ErrUnavailable
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if cmd.Err != nil {
		return nil, cmd.Err
	}
	if _, err := exec.LookPath(cmd.Path); err != nil {
		return nil, err // as Start would fail, before any helper starts
	}
	return s.confine(cmd, p)
}

// Started closes what the parent no longer needs once cmd.Start has
// succeeded, and returns once the helper has set the sandbox up and the
// program runs (or the helper has ended): from then on, signals sent to
// the command's process group reach the program. Call Discard instead
// when Start failed.
func (c *Confined) Started() { c.report.started() }

// Discard releases what Confine prepared, for a command that did not
// start; Exit is not called then.
func (c *Confined) Discard() { c.report.discard() }

// Exit returns how the command ended, given the helper's reaped state
// (nil when the wait failed): the command's own exit where the helper
// reported it, else the helper's. Call it once, after the helper has been
// reaped.
func (c *Confined) Exit(state *os.ProcessState) Exit {
	return c.report.exit(state)
}

// Exit is how a process ended: killed by Signal when it is not 0, else
// exited with Code.
type Exit struct {
	Code   int
	Signal syscall.Signal
}

// ExitOf reads the exit of a reaped process; a nil state (the wait itself
// failed) is exit code -1.
func ExitOf(state *os.ProcessState) Exit {
	if state == nil {
		return Exit{Code: -1}
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Exit{Signal: ws.Signal()}
	}
	return Exit{Code: state.ExitCode()}
}
