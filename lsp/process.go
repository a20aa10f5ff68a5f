package lsp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"

	"github.com/dsh-acp/dsh-acp/internal/procgroup"
)

// process is a running language server program: its stdio as one stream
// and the tail of its stderr.
type process struct {
	cmd    *exec.Cmd
	group  *procgroup.Group // the server and every process it starts
	stdin  *os.File         // our end of the server's stdin
	stdout *os.File         // our end of the server's stdout
	stderr *tailBuffer
	exited chan struct{} // closed once the program has exited and been reaped
}

// startProcess runs argv in dir with the environment env, held in a
// group of its own (procgroup) so that whatever it starts stops with it.
func startProcess(argv []string, dir string, env []string) (*process, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("find %s: %w", argv[0], err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		_ = inR.Close()
		_ = inW.Close()
		return nil, fmt.Errorf("stdout pipe: %w", err)
	}
	p := &process{stdin: inW, stdout: outR, stderr: &tailBuffer{max: 4 << 10}, exited: make(chan struct{})}
	p.cmd = exec.Command(path, argv[1:]...) //nolint:gosec // the configured language server
	p.cmd.Dir = dir
	p.cmd.Env = env
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, p.stderr
	procgroup.Isolate(p.cmd)
	err = p.cmd.Start()
	// The child holds its own copies of these ends now.
	_ = inR.Close()
	_ = outW.Close()
	if err == nil {
		if p.group, err = procgroup.Hold(p.cmd); err != nil {
			_ = p.cmd.Wait()
		}
	}
	if err != nil {
		_ = inW.Close()
		_ = outR.Close()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Read reads the server's stdout.
func (p *process) Read(b []byte) (int, error) { return p.stdout.Read(b) }

// Write writes the server's stdin.
func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close closes both pipe ends; the server sees end of input.
func (p *process) Close() error {
	return errors.Join(p.stdin.Close(), p.stdout.Close())
}

// kill stops the server and every process it started; it returns once
// they are gone.
func (p *process) kill() { p.group.Stop(procgroup.Grace) }

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

// Write keeps the tail of what the server wrote to stderr.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if extra := t.buf.Len() - t.max; extra > 0 {
		t.buf.Next(extra)
	}
	return len(b), nil
}

// String returns the kept tail.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}

var _ io.ReadWriteCloser = (*process)(nil)
