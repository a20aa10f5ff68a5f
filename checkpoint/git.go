package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
)

// identity is the author and committer of every checkpoint.
const (
	identityName  = "dsh-acp"
	identityEmail = "checkpoints@dsh-acp.invalid"
)

// gitRunner runs git on the shadow repository of one root.
type gitRunner struct {
	bin  string   // the git binary, resolved
	root string   // the work tree
	env  []string // the whole environment of every command
	args []string // the -c options every command starts with
}

// newGitRunner returns the runner for the repository gitDir whose work
// tree is root. Git sees a HOME of its own, so neither the user's
// configuration nor their excludes or attributes files are read.
func newGitRunner(bin, gitDir, root string) *gitRunner {
	env := []string{
		"GIT_DIR=" + gitDir,
		"GIT_WORK_TREE=" + root,
		"GIT_INDEX_FILE=" + gitDir + string(os.PathSeparator) + "index",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_NO_REPLACE_OBJECTS=1",
		"GIT_LITERAL_PATHSPECS=1",
		"GIT_AUTHOR_NAME=" + identityName,
		"GIT_AUTHOR_EMAIL=" + identityEmail,
		"GIT_COMMITTER_NAME=" + identityName,
		"GIT_COMMITTER_EMAIL=" + identityEmail,
		"HOME=" + gitDir,
		"XDG_CONFIG_HOME=" + gitDir,
		"LC_ALL=C",
	}
	// Of our own environment git sees only where programs are and where
	// temporary files go; the user's GIT_* variables above all stay out.
	for _, name := range []string{"PATH", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT"} {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	// On top of what git init probed (file modes, symbolic links, case
	// sensitivity): no line-ending conversion, no hooks, no signing, no
	// background work, and the untracked cache that makes finding new
	// files cheap.
	config := []string{
		"core.autocrlf=false",
		"core.safecrlf=false",
		"core.hooksPath=" + os.DevNull,
		"core.fsmonitor=false",
		"core.untrackedCache=true",
		"commit.gpgSign=false",
		"index.version=4",
		"gc.autoDetach=false",
		"maintenance.auto=false",
	}
	var args []string
	for _, kv := range config {
		args = append(args, "-c", kv)
	}
	return &gitRunner{bin: bin, root: root, env: env, args: args}
}

// command returns the git command for args, run in the root, with stdin
// as its input (none when nil).
func (g *gitRunner) command(ctx context.Context, stdin []byte, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, g.bin, append(append([]string(nil), g.args...), args...)...)
	cmd.Dir = g.root
	cmd.Env = g.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	// A killed git's pipes are closed soon after, even if a child it
	// started still holds them.
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// run runs git with args and returns its standard output. A failure is a
// *gitError naming the subcommand and quoting what git said.
func (g *gitRunner) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := g.command(ctx, stdin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.Bytes(), newGitError(ctx, args, stderr.Bytes(), err)
	}
	return stdout.Bytes(), nil
}

// gitError is a git command that failed.
type gitError struct {
	Subcommand string
	Stderr     string // what git said, trimmed
	Err        error  // the exec error
}

// newGitError wraps err, the failure of the command with args; a context
// that ended wins, so that cancellation reads as cancellation.
func newGitError(ctx context.Context, args []string, stderr []byte, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = ctxErr
	}
	if startFailed(err) {
		err = fmt.Errorf("%w: %w", ErrNoGit, err)
	}
	return &gitError{Subcommand: subcommand(args), Stderr: strings.TrimSpace(string(stderr)), Err: err}
}

// startFailed reports whether err says the git binary could not be
// started at all (gone, or not executable), as opposed to a command that
// ran and failed or a working directory that is gone.
func startFailed(err error) bool {
	var pathErr *fs.PathError
	return errors.Is(err, exec.ErrNotFound) || errors.As(err, &pathErr) && pathErr.Op == "fork/exec"
}

// subcommand returns the git subcommand args run: the first argument
// past the -c options.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "-c" {
			i++
			continue
		}
		return args[i]
	}
	return ""
}

// Error names the subcommand and quotes git.
func (e *gitError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("git %s: %v", e.Subcommand, e.Err)
	}
	return fmt.Sprintf("git %s: %v: %s", e.Subcommand, e.Err, e.Stderr)
}

// Unwrap returns the exec error.
func (e *gitError) Unwrap() error { return e.Err }

// splitNUL splits git's NUL-terminated output into its fields.
func splitNUL(out []byte) []string {
	out = bytes.TrimSuffix(out, []byte{0})
	if len(out) == 0 {
		return nil
	}
	return strings.Split(string(out), "\x00")
}

// joinNUL is paths as git's --stdin -z reads them.
func joinNUL(paths []string) []byte {
	var buf bytes.Buffer
	for _, p := range paths {
		buf.WriteString(p)
		buf.WriteByte(0)
	}
	return buf.Bytes()
}
