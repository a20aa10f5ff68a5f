package shell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// bashDescription is what the model reads about the bash tool, for a
// Shell running sh, keeping limit bytes of each stream and spillLimit
// bytes in a spill file. Its first line, which the system prompt repeats,
// names the shell and its language.
func bashDescription(sh program, limit int, spillLimit int64) string {
	return fmt.Sprintf(`%s in the session's working directory (or workdir) and return its output.

- stdout comes first, then stderr after a "[stderr]" line; a non-zero exit ends the output with "[exit code: N]", a kill with "[killed by signal: SIG]".
- timeout is in milliseconds: 120000 by default, at most 600000. A command that runs longer is killed and marked "[timed out after <ms>ms]". A background job has no timeout unless one is given.
- stdin is closed: interactive programs get no input, so pass flags that make them non-interactive. Pagers print directly.
- Each stream keeps its first %d and last %d bytes; when output is cut, the output (its first %d bytes at most) is written to the file named in "[output truncated; full output: <path>]", readable until the session ends.
- Anything the command leaves running is stopped when it ends, including processes started with setsid or nohup. For servers and watchers, set run_in_background: the command starts as a job and the result is its id; read its output with job_output, list jobs with job_list, stop it with job_kill.
- Prefer the read, edit, write, grep and glob tools over cat, sed, echo >, grep and find.`, runsWith(sh), limit/2, limit-limit/2, spillLimit)
}

// runsWith opens the bash tool's description: which shell runs the
// command line, and so which language it must be written in.
func runsWith(sh program) string {
	if sh.dialect == command.PowerShell {
		return fmt.Sprintf("Run a PowerShell command line (this machine has no bash: commands run with %s, so write PowerShell, not bash)", sh.path)
	}
	return "Run a shell command with bash -c"
}

// bashTool defines the bash tool.
func (s *Shell) bashTool() (*registry.Tool, error) {
	return registry.Define(registry.Spec[bashArgs, commandResult]{
		Name:        "bash",
		Description: bashDescription(s.shell, s.opts.OutputLimit, s.opts.SpillLimit) + s.sandboxNote(),
		Handler:     s.runBash,
		Render: func(_ bashArgs, r commandResult) ([]presentation.ContentBlock, error) {
			return []presentation.ContentBlock{presentation.Text(renderResult(r))}, nil
		},
		PresentationMeta: func(_ bashArgs, r commandResult) (any, error) { return metaOf(r), nil },
		// A backstop only: the command's own timeout always ends it first.
		Timeout: MaxTimeoutMs*time.Millisecond + time.Minute,
		Effect:  registry.EffectExecute,
		Paths: func(a bashArgs) []string {
			if a.Workdir == "" {
				return nil
			}
			return []string{a.Workdir}
		},
		PresentCall: presentBashCall,
		PresentResult: func(a bashArgs, r presentation.ToolResult) presentation.ResultView {
			return presentBashResult(s.ws, a, r)
		},
	})
}

// runBash is the bash tool's body.
func (s *Shell) runBash(ctx context.Context, call *registry.Call, a bashArgs) (commandResult, error) {
	timeout, err := timeoutOf(a.Timeout)
	if err != nil {
		return commandResult{}, err
	}
	dir, err := s.workdir(a.Workdir)
	if err != nil {
		return commandResult{}, err
	}
	if a.RunInBackground {
		if a.Timeout == nil {
			timeout = 0
		}
		id, err := s.startJob(a.Command, dir, a.escapes(), timeout)
		return commandResult{JobID: id}, err
	}
	return s.runForeground(ctx, call, a.Command, dir, a.escapes(), timeout)
}

// runForeground runs command to its end, its timeout, or the cancellation
// of ctx (or the Shell's Close), reporting its output as it arrives; in
// the sandbox unless escape. It returns only once every process of the
// command's group is gone.
func (s *Shell) runForeground(ctx context.Context, call *registry.Call, command, dir string, escape bool, timeout time.Duration) (commandResult, error) {
	if err := s.enter(); err != nil {
		return commandResult{}, err
	}
	defer s.inFlight.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.life, cancel)()
	if ctx.Err() != nil {
		return commandResult{}, &registry.Error{Code: registry.CodeAborted, Message: "the command was cancelled before it started"}
	}

	out := newForegroundOutput(s.opts.OutputLimit, s.spill, s.opts.SpillLimit, func(chunk string) {
		call.Report(registry.Progress{Output: chunk})
	})
	confine, policy := s.confinement(dir, escape)
	p, err := spawn(launch{shell: s.shell, command: command, dir: dir, envAllow: s.opts.EnvAllow, confine: confine, sinks: out.sinks()})
	if err != nil {
		return commandResult{}, spawnError(err)
	}
	if s.started != nil {
		s.started(p.groupID())
	}

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	cancelled, timedOut := false, false
	select {
	case <-p.exited:
	case <-ctx.Done():
		cancelled = true
		p.terminate(s.opts.KillGrace)
	case <-timer.C:
		timedOut = true
		p.terminate(s.opts.KillGrace)
	}
	exit := p.settle(s.opts.KillGrace)
	out.finish()
	r := out.result(exit)
	if policy != nil && !cancelled {
		r.Blocked = blockedBy(r, *policy)
	}
	if timedOut {
		r.TimeoutMs = int(timeout / time.Millisecond)
	}
	if cancelled {
		return commandResult{}, &registry.Error{
			Code:    registry.CodeAborted,
			Message: cancelledIntro + renderResult(r),
		}
	}
	return r, nil
}

// cancelledIntro opens the error of a foreground command a cancel
// stopped; its rendered result (the output so far and how it ended)
// follows (cancelledOutput reads it back).
const cancelledIntro = "the command was cancelled and its processes were stopped; output so far:\n"

// timeoutOf turns the timeout argument (milliseconds) into a duration:
// DefaultTimeoutMs when absent, at most MaxTimeoutMs.
func timeoutOf(ms *int) (time.Duration, error) {
	switch {
	case ms == nil:
		return DefaultTimeoutMs * time.Millisecond, nil
	case *ms <= 0:
		return 0, registry.ArgsError([]string{fmt.Sprintf("timeout must be a positive number of milliseconds (at most %d), not %d", MaxTimeoutMs, *ms)})
	case *ms > MaxTimeoutMs:
		return MaxTimeoutMs * time.Millisecond, nil
	}
	return time.Duration(*ms) * time.Millisecond, nil
}

// workdir resolves the workdir argument against the session's working
// directory ("" is the working directory itself) and checks that it is an
// existing directory. A workdir no path can name (one holding a NUL byte)
// is an INVALID_ARGS error.
func (s *Shell) workdir(arg string) (string, error) {
	if arg == "" {
		return s.ws.Cwd(), nil
	}
	dir, err := s.ws.Abs(arg)
	if err != nil {
		return "", registry.ArgsError([]string{"workdir: " + err.Error()})
	}
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", &registry.Error{Code: CodeWorkdirNotFound, Cause: err, Message: fmt.Sprintf(
			"workdir %s does not exist: pass an existing directory, or leave workdir out to run in %s", dir, s.ws.Cwd())}
	case err != nil:
		return "", &registry.Error{Code: CodeWorkdirNotFound, Cause: err, Message: fmt.Sprintf(
			"workdir %s cannot be used (%v): pass another directory, or leave workdir out to run in %s", dir, err, s.ws.Cwd())}
	case !info.IsDir():
		return "", &registry.Error{Code: CodeWorkdirNotDirectory, Message: fmt.Sprintf(
			"workdir %s is a file, not a directory: pass its directory instead", dir)}
	}
	return dir, nil
}

// spawnError is the failure of a command that could not start.
func spawnError(err error) error {
	return &registry.Error{Code: CodeSpawnFailed, Cause: err, Message: fmt.Sprintf(
		"the command could not be started: %v", err)}
}
