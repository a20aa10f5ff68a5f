package shell

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/sandbox"
)

// drainLimit is how long output is still read after a command's process
// group has ended, for pipes held open by a process that left the group
// (setsid, daemons). Then the pipes are closed.
const drainLimit = 500 * time.Millisecond

// readBuffer is the size of one read from an output pipe.
const readBuffer = 32 << 10

// launch says what spawn starts.
type launch struct {
	shell   program
	command string
	dir     string
	// envAllow lets secret-looking variables through (Options.EnvAllow).
	envAllow []string
	// confine, when set, confines the command (Shell.confinement).
	confine func(*exec.Cmd) (*sandbox.Confined, error)
	// sinks receive the output as it arrives, one per pipe, each from its
	// own goroutine and never after settle has returned; they must copy
	// the bytes they keep. With one sink, stdout and stderr share a pipe;
	// with two, sinks[0] gets stdout and sinks[1] stderr.
	sinks []func([]byte)
}

// process is a started command: the shell, with stdin on the null
// device, and every process it starts, held together by the platform's
// tree (tree_unix.go: a session and process group of its own;
// tree_windows.go: a Job Object).
type process struct {
	cmd    *exec.Cmd
	tree                 // the platform's hold on the command's processes
	id     string        // the command id its environment carries (commandIDVar)
	exited chan struct{} // closed once the leader has been reaped
	exit   exitStatus    // set before exited is closed
	// confined is the sandbox's report of how a confined command ended.
	confined *sandbox.Confined
	pipes    []*os.File // the read ends
	reading  sync.WaitGroup
}

// spawn starts l. The command is set apart (isolate): on Unix in a
// session of its own and therefore its own process group with no
// controlling terminal, so a program that would prompt on /dev/tty fails
// at once instead of waiting for input; on Windows in a Job Object of its
// own, with no console window. Its environment is the agent's minus
// secrets, plus a fresh command id (childEnv). A confined command's leader
// is the sandbox's helper, which runs the shell and ends with it.
func spawn(l launch) (*process, error) {
	id := newCommandID()
	cmd := exec.Command(l.shell.path, l.shell.args(l.command)...)
	cmd.Dir = l.dir
	cmd.Env = childEnv(os.Environ(), l.envAllow, id)
	isolate(cmd)
	readEnds, writeEnds, err := openPipes(len(l.sinks))
	if err != nil {
		return nil, err
	}
	var confined *sandbox.Confined
	if l.confine != nil {
		if confined, err = l.confine(cmd); err != nil {
			closeAll(readEnds)
			closeAll(writeEnds)
			return nil, err
		}
	}
	cmd.Stdout = writeEnds[0]
	cmd.Stderr = writeEnds[len(writeEnds)-1]
	err = cmd.Start()
	closeAll(writeEnds)
	if err != nil {
		closeAll(readEnds)
		if confined != nil {
			confined.Discard()
		}
		return nil, err
	}
	if confined != nil {
		confined.Started()
	}
	t, err := hold(cmd)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		closeAll(readEnds)
		return nil, err
	}
	p := &process{cmd: cmd, tree: t, id: id, exited: make(chan struct{}), pipes: readEnds, confined: confined}
	for i, r := range readEnds {
		p.reading.Add(1)
		go p.read(r, l.sinks[i])
	}
	go p.wait()
	return p, nil
}

// wait reaps the leader and learns how the command ended: from the
// sandbox for a confined command (its leader is the helper), else from
// the leader's own exit.
func (p *process) wait() {
	_ = p.cmd.Wait() // the exit is read from ProcessState
	if p.confined != nil {
		p.exit = p.statusOf(p.confined.Exit(p.cmd.ProcessState))
	} else {
		p.exit = p.statusOf(sandbox.ExitOf(p.cmd.ProcessState))
	}
	close(p.exited)
}

// read hands r's bytes to sink until EOF or until settle closes r.
func (p *process) read(r io.Reader, sink func([]byte)) {
	defer p.reading.Done()
	buf := make([]byte, readBuffer)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			sink(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// settle waits for the leader to be reaped, stops whatever the command
// left running (stopRest), reads the output that is left, lets go of the
// command's tree, and returns the exit. No goroutine of p runs and no
// sink is called after settle returns.
func (p *process) settle(grace time.Duration) exitStatus {
	<-p.exited
	p.stopRest(grace)
	defer p.release()
	drained := make(chan struct{})
	go func() {
		p.reading.Wait()
		close(drained)
	}()
	limit := time.NewTimer(drainLimit)
	select {
	case <-drained:
	case <-limit.C:
	}
	limit.Stop()
	closeAll(p.pipes)
	<-drained
	return p.exit
}

// reaped reports whether the leader has been reaped.
func (p *process) reaped() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// openPipes returns n pipes as their read and write ends.
func openPipes(n int) (readEnds, writeEnds []*os.File, err error) {
	if n == 0 {
		return nil, nil, errors.New("no output pipe requested")
	}
	for range n {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(readEnds)
			closeAll(writeEnds)
			return nil, nil, err
		}
		readEnds = append(readEnds, r)
		writeEnds = append(writeEnds, w)
	}
	return readEnds, writeEnds, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
