package mcp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dsh-acp/dsh-acp/secrets"
)

// terminateAfter is how long closing a stdio server waits for it to exit
// once its stdin is closed, before signalling it.
const terminateAfter = 2 * time.Second

// drainWait bounds how long a report or Close waits for the rest of a
// killed server's stderr.
const drainWait = 5 * time.Second

// process is a stdio server's command: it runs in its own process group,
// so that stopping it stops every process it started, and its stderr is
// kept in a tail for reports.
type process struct {
	cmd     *exec.Cmd
	stderr  tail
	read    *os.File // stderr's read end, drained into stderr
	write   *os.File // stderr's write end, the parent's copy closed once started
	drained chan struct{}
}

// newProcess prepares cfg's command and its transport; nothing runs until
// the transport connects. The command's environment is the agent's without
// the secrets the rule withholds (envAllow may let some through), with
// cfg.Env on top.
func newProcess(cfg Server, envAllow []string) (*process, *sdk.CommandTransport, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, fmt.Errorf("stderr pipe: %w", err)
	}
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env = secrets.ServerEnviron(os.Environ(), envAllow, cfg.Env)
	cmd.Dir = cfg.Dir
	cmd.Stderr = w
	ownGroup(cmd)
	p := &process{cmd: cmd, read: r, write: w, drained: make(chan struct{})}
	go func() {
		defer close(p.drained)
		_, _ = io.Copy(&p.stderr, r)
	}()
	return p, &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateAfter}, nil
}

// started closes the parent's copy of stderr's write end; call it once the
// transport's Connect has returned, whether or not the command started.
func (p *process) started() { _ = p.write.Close() }

// kill stops every process in the command's group; it does nothing when
// the command never started or the group is gone.
func (p *process) kill() {
	if p.cmd.Process == nil {
		return
	}
	killGroup(p.cmd)
}

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
