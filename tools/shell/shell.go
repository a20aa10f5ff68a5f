package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/sandbox"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// The limits of the bash tool's timeout argument, in milliseconds.
const (
	// DefaultTimeoutMs is the timeout of a command that names none: two
	// minutes.
	DefaultTimeoutMs = 120_000
	// MaxTimeoutMs is the longest timeout a command may ask for: ten
	// minutes. Larger values are lowered to it.
	MaxTimeoutMs = 600_000
)

// The defaults of Options.
const (
	// DefaultOutputLimit is how many bytes of each output stream a result
	// keeps: the first half and the last half of the limit.
	DefaultOutputLimit = 30_000
	// DefaultKillGrace is how long a process group has between SIGTERM and
	// SIGKILL.
	DefaultKillGrace = 2 * time.Second
	// DefaultSpillLimit is how many bytes of a command's output its spill
	// file keeps: 64 MiB.
	DefaultSpillLimit = 64 << 20
)

// Error codes of the shell tools' failed results. Callers route on the
// code, never on the message. A cancelled call fails with
// registry.CodeAborted, as every tool's does; for a foreground command its
// process group has been killed by the time the result exists.
const (
	// CodeSpawnFailed is a command that could not be started.
	CodeSpawnFailed = "SHELL_SPAWN_FAILED"
	// CodeWorkdirNotFound is a workdir that does not exist.
	CodeWorkdirNotFound = "SHELL_WORKDIR_NOT_FOUND"
	// CodeWorkdirNotDirectory is a workdir that is not a directory.
	CodeWorkdirNotDirectory = "SHELL_WORKDIR_NOT_DIRECTORY"
	// CodeJobNotFound is a job id the session does not know.
	CodeJobNotFound = "SHELL_JOB_NOT_FOUND"
	// CodeClosed is a call made after the Shell was closed.
	CodeClosed = "SHELL_CLOSED"
)

// Options configure a Shell. The zero value is ready to use.
type Options struct {
	// Shell is the program commands run with: as `<Shell> -c <command>`,
	// or for pwsh and powershell as `<Shell> -NoProfile -NonInteractive
	// -EncodedCommand <command>`. When empty, the program DSH_SHELL names
	// is used; else, on Unix, bash on PATH, else sh, else /bin/sh; on
	// Windows, Git for Windows' bash.exe, else pwsh, else Windows
	// PowerShell.
	Shell string
	// SpillDir is where the spill files of truncated commands go, in a
	// dsh-bash-* directory of the Shell's own; os.TempDir() when empty.
	// Results name their spill file, which stays readable until the Shell
	// closes: Close removes the directory and every file in it.
	SpillDir string
	// SpillLimit is how many bytes of a command's output its spill file
	// keeps: the first SpillLimit bytes, then a line saying how many more
	// were not written (results say so too). DefaultSpillLimit when zero.
	SpillLimit int64
	// OutputLimit is how many bytes of each stream (stdout, stderr, a
	// job's output) are kept in memory; DefaultOutputLimit when zero.
	OutputLimit int
	// KillGrace is the time between SIGTERM and SIGKILL when a process
	// group is stopped; DefaultKillGrace when zero.
	KillGrace time.Duration
	// EnvAllow lets variables the secret rule withholds into commands'
	// environments: names or path.Match patterns, matched
	// case-insensitively (see ParseEnvAllow). The agent's own model keys
	// are never let through.
	EnvAllow []string
	// Sandbox, when set, confines commands in the kernel (see package
	// sandbox); SandboxPolicy then says how, per command. Without it, or
	// where the kernel offers no sandbox, every command runs unconfined.
	Sandbox *sandbox.Sandbox
	// SandboxPolicy returns the policy of a command about to run in dir;
	// confined false runs it unconfined (the full-access preset). It is
	// called for every command, so a change of preset holds from the next
	// one. A call with `sandbox: false` (which the permission policy
	// asked the user about) runs unconfined without calling it.
	SandboxPolicy func(dir string) (p sandbox.Policy, confined bool)
}

// Shell binds the bash tool and the background job tools to one session:
// its workspace, its jobs, and the commands still running. It is safe for
// concurrent use. Close it when the session ends.
type Shell struct {
	ws    *workspace.Workspace
	opts  Options
	shell program // opts.Shell and its dialect
	tools []*registry.Tool
	jobs  *jobTable
	spill *spillDir

	// life is cancelled by Close; every command watches it.
	life     context.Context
	endLife  context.CancelFunc
	mu       sync.Mutex
	closed   bool
	inFlight sync.WaitGroup

	// started, when set (by tests), learns each command's group: its
	// process group on Unix, its shell's pid on Windows.
	started func(group int)
}

// New returns the Shell of a session working in ws. It fails when no shell
// program can be found or an EnvAllow entry is not a valid pattern.
func New(ws *workspace.Workspace, opts Options) (*Shell, error) {
	if ws == nil {
		return nil, errors.New("shell: a workspace is required")
	}
	allow := make([]string, len(opts.EnvAllow))
	for i, pattern := range opts.EnvAllow {
		allow[i] = strings.ToUpper(pattern)
		if err := checkAllowPattern(allow[i]); err != nil {
			return nil, fmt.Errorf("shell: EnvAllow: %w", err)
		}
	}
	opts.EnvAllow = allow
	if opts.Sandbox != nil && opts.SandboxPolicy == nil {
		return nil, errors.New("shell: a Sandbox needs a SandboxPolicy")
	}
	if opts.Shell == "" {
		path, err := defaultShell()
		if err != nil {
			return nil, fmt.Errorf("shell: %w", err)
		}
		opts.Shell = path
	}
	if opts.SpillDir == "" {
		opts.SpillDir = os.TempDir()
	}
	if opts.SpillLimit <= 0 {
		opts.SpillLimit = DefaultSpillLimit
	}
	if opts.OutputLimit <= 0 {
		opts.OutputLimit = DefaultOutputLimit
	}
	if opts.KillGrace <= 0 {
		opts.KillGrace = DefaultKillGrace
	}
	life, end := context.WithCancel(context.Background())
	s := &Shell{ws: ws, opts: opts, shell: programAt(opts.Shell), jobs: newJobTable(), spill: &spillDir{parent: opts.SpillDir}, life: life, endLife: end}
	tools, err := s.define()
	if err != nil {
		end()
		return nil, fmt.Errorf("shell: %w", err)
	}
	s.tools = tools
	return s, nil
}

// Dialect is the language of the command lines the bash tool runs: Bash,
// or PowerShell where the shell is pwsh or powershell. The permission
// policy judges Bash lines only.
func (s *Shell) Dialect() command.Dialect { return s.shell.dialect }

// Tools returns the session's tools, in this order: bash, job_output,
// job_list, job_kill. The slice is the caller's own.
func (s *Shell) Tools() []*registry.Tool {
	return append([]*registry.Tool(nil), s.tools...)
}

// Close stops everything the session still runs: it cancels running
// foreground commands, kills every background job's process group and
// strays (SIGTERM, then SIGKILL after the grace), waits until every
// process has been reaped and every goroutine of the package has ended,
// and removes the session's spill files. Calls made after Close fail with
// CodeClosed. Close is idempotent; it fails only when the spill files
// could not be removed.
func (s *Shell) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.endLife()
	s.inFlight.Wait()
	if err := s.spill.remove(); err != nil {
		return fmt.Errorf("shell: %w", err)
	}
	return nil
}

// enter registers work that Close must wait for; it fails once the Shell
// is closed. The caller calls s.inFlight.Done when the work has ended.
func (s *Shell) enter() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return &registry.Error{Code: CodeClosed, Message: "the shell of this session has been closed; no command can run"}
	}
	s.inFlight.Add(1)
	return nil
}

// define builds the four tools bound to s.
func (s *Shell) define() ([]*registry.Tool, error) {
	builders := []func() (*registry.Tool, error){s.bashTool, s.jobOutputTool, s.jobListTool, s.jobKillTool}
	tools := make([]*registry.Tool, 0, len(builders))
	for _, build := range builders {
		t, err := build()
		if err != nil {
			return nil, err
		}
		tools = append(tools, t)
	}
	return tools, nil
}
