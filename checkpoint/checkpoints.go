package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gofrs/flock"
)

// Permissions of what the package creates in the state directory: the
// user's own.
const (
	dirPerm  fs.FileMode = 0o700
	filePerm fs.FileMode = 0o600
)

// Checkpoints takes and restores checkpoints of one workspace root, and
// keeps one session's undo stack. It is safe for concurrent use, and
// other processes may use the same root's repository at the same time:
// every operation holds the repository's file lock.
type Checkpoints struct {
	opts   Options
	root   string // the root, symbolic links resolved
	state  string // the state directory, symbolic links resolved
	dir    string // <state>/checkpoints/<hash>
	gitDir string
	git    *gitRunner

	// mu orders this value's own operations; the file lock orders them
	// with other values' and other processes'.
	mu sync.Mutex
	// turn is the lock of this stack's running turn, held from Push to
	// Finish (see turnlock.go); guarded by mu.
	turn *flock.Flock
}

// Open returns the checkpoints of opts.Root, creating its shadow
// repository when this is the first time; ctx bounds the wait for
// another process that holds the repository. The error wraps ErrNoGit
// when the git binary cannot be found or run.
func Open(ctx context.Context, opts Options) (*Checkpoints, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if opts.StateDir == "" {
		return nil, errors.New("checkpoint: no state directory")
	}
	if !filepath.IsAbs(opts.Root) {
		return nil, fmt.Errorf("checkpoint: the root %q is not an absolute path", opts.Root)
	}
	root, err := filepath.EvalSymlinks(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("checkpoint: the root %s is not a directory", opts.Root)
	}
	bin, err := exec.LookPath(opts.Git)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w: %w", ErrNoGit, err)
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(opts.StateDir, "checkpoints", hex.EncodeToString(sum[:8]))
	c := &Checkpoints{opts: opts, root: root, dir: dir, gitDir: filepath.Join(dir, "git")}
	c.git = newGitRunner(bin, c.gitDir, root)
	if err := os.MkdirAll(dir, dirPerm); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if c.state, err = filepath.Abs(opts.StateDir); err == nil {
		c.state, err = filepath.EvalSymlinks(c.state)
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if err := c.claim(); err != nil {
		return nil, err
	}
	unlock, err := c.lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	c.repairHead()
	if _, err := c.git.run(ctx, nil, "init", "--quiet", "--template="); err != nil {
		return nil, fmt.Errorf("checkpoint: create the shadow repository: %w", err)
	}
	return c, nil
}

// Root returns the workspace root, symbolic links resolved.
func (c *Checkpoints) Root() string { return c.root }

// claim records which root the repository directory belongs to, or
// checks that it is this one. A root file that is missing, empty,
// unreadable or holds no absolute path (a full disk, a crash while it was
// written) claims nothing: it is written again, atomically.
func (c *Checkpoints) claim() error {
	path := filepath.Join(c.dir, "root")
	data, err := os.ReadFile(path)
	owner := string(data)
	switch {
	case err == nil && owner == c.root:
		return nil
	case err == nil && filepath.IsAbs(owner) && filepath.Clean(owner) == owner:
		return fmt.Errorf("checkpoint: %s holds the checkpoints of %s, not of %s", c.dir, owner, c.root)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.opts.Logger.Warn("checkpoint: the root file cannot be read; claiming it again", "path", path, "err", err)
		os.Remove(path) // an empty directory in its place, say; the rename below replaces a file
	}
	if err := writeAtomic(path, []byte(c.root), filePerm); err != nil {
		return fmt.Errorf("checkpoint: claim %s: %w", c.dir, err)
	}
	return nil
}

// repairHead removes the shadow repository's HEAD when it is not one
// (empty or cut short by a full disk), so that git init writes it again:
// git refuses every command on a repository with a broken HEAD.
func (c *Checkpoints) repairHead() {
	path := filepath.Join(c.gitDir, "HEAD")
	data, err := os.ReadFile(path)
	if err != nil {
		return // missing: init writes it; unreadable: git says why
	}
	head := strings.TrimSpace(string(data))
	if strings.HasPrefix(head, "ref: refs/") || isObjectID(head) {
		return
	}
	c.opts.Logger.Warn("checkpoint: the shadow repository's HEAD is broken; writing it again", "path", path)
	os.Remove(path)
}

// abs returns the absolute path of rel, a slash-separated path relative to
// the root as git prints it.
func (c *Checkpoints) abs(rel string) string {
	return filepath.Join(c.root, filepath.FromSlash(rel))
}

// absSkipped returns skipped with absolute paths.
func (c *Checkpoints) absSkipped(skipped []Skipped) []Skipped {
	out := make([]Skipped, len(skipped))
	for i, s := range skipped {
		s.Path = c.abs(s.Path)
		out[i] = s
	}
	return out
}

// removeStaleLocks removes the lock files a git command killed midway
// left in the repository, and the refs of ours a full disk left broken
// (git refuses to update a broken ref, which would stop every later
// checkpoint of the stack). It runs under the repository's file lock,
// while no git command of ours runs, so every lock it finds is stale.
func (c *Checkpoints) removeStaleLocks() {
	for _, name := range []string{"index.lock", "packed-refs.lock", "HEAD.lock", "config.lock", "shallow.lock"} {
		os.Remove(filepath.Join(c.gitDir, name))
	}
	refs := filepath.Join(c.gitDir, "refs")
	filepath.WalkDir(refs, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || d.IsDir():
		case strings.HasSuffix(d.Name(), ".lock"):
			os.Remove(path)
		case strings.HasPrefix(path, filepath.Join(refs, "dsh")+string(filepath.Separator)) && !holdsObjectID(path):
			c.opts.Logger.Warn("checkpoint: removing a broken ref", "path", path)
			os.Remove(path)
		}
		return nil
	})
}

// holdsObjectID reports whether the loose ref at path names an object.
func holdsObjectID(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && isObjectID(strings.TrimSpace(string(data)))
}
