package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
	"github.com/dsh-acp/dsh-acp/secrets"
)

// terminateAfter is how long closing a stdio server waits for it to exit
// once its stdin is closed, before signalling it.
const terminateAfter = 2 * time.Second

// drainWait bounds how long a report or Close waits for the rest of a
// killed server's stderr.
const drainWait = 5 * time.Second

// process is a stdio server's command: it is held in a group of its own
// (procgroup), so that stopping it stops every process it started, and
// its stderr is kept in a tail for reports.
type process struct {
	cmd     *exec.Cmd
	group   atomic.Pointer[procgroup.Group] // set once the command runs
	stderr  tail
	read    *os.File // stderr's read end, drained into stderr
	write   *os.File // stderr's write end, the parent's copy closed once started
	drained chan struct{}
}

// newProcess prepares cfg's command and its transport; nothing runs until
// the transport connects. The command's environment is the agent's without
// the secrets the rule withholds (envAllow may let some through), with
// cfg.Env on top.
func newProcess(cfg Server, envAllow []string) (*process, sdk.Transport, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = secrets.ServerEnviron(os.Environ(), envAllow, cfg.Env)
	cmd.Dir = cfg.Dir
	cmd.Stderr = w
	procgroup.Isolate(cmd)
	p := &process{cmd: cmd, read: r, write: w, drained: make(chan struct{})}
	go func() {
		defer close(p.drained)
		_, _ = io.Copy(&p.stderr, r)
	}()
	return p, heldTransport{inner: &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, proc: p}, nil
}

// heldTransport starts the command through inner and holds it in its
// group before anything is sent to it (on Windows the command does not
// run until it is held).
type heldTransport struct {
	inner *sdk.CommandTransport
	proc  *process
}

// Connect starts the command and holds it; a command that cannot be held
// is stopped, and the connection fails.
func (t heldTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	group, err := procgroup.Hold(t.proc.cmd)
	if err != nil {
		_ = conn.Close()
		return nil, err
	}
	t.proc.group.Store(group)
	return conn, nil
}

// started closes the parent's copy of stderr's write end; call it once the
// transport's Connect has returned, whether or not the command started.
func (p *process) started() { _ = p.write.Close() }

// kill stops every process in the command's group and returns once none
// is left; it does nothing when the command never ran or the group is
// gone.
func (p *process) kill() { p.group.Load().Stop(procgroup.Grace) }

// tail returns the server's stderr tail once its stderr has closed (or
// drainWait has passed, as a guard against a process that left the group).
func (p *process) tail() string {
	select {
	case <-p.drained:
	case <-time.After(drainWait):
	}
	return p.stderr.String()
}

// release kills the group and frees the stderr pipe; the drain goroutine
// has ended when it returns.
func (p *process) release() {
	p.kill()
	select {
	case <-p.drained:
	case <-time.After(drainWait):
		_ = p.read.Close()
		<-p.drained
	}
	_ = p.read.Close()
}
