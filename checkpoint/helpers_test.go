package checkpoint_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// needGit skips the test where git is not installed.
func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// userGit runs git in dir the way a user would, with a configuration of
// its own, and fails the test when it fails.
func userGit(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@example.com",
		"GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// project is a workspace root and a state directory for one test.
type project struct {
	t     testing.TB
	root  string
	state string
}

// newProject returns an empty workspace root (symbolic links resolved)
// and state directory.
func newProject(t testing.TB) *project {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &project{t: t, root: root, state: t.TempDir()}
}

// withUserRepo makes the root a git repository of the user's, with the
// files there now committed.
func (p *project) withUserRepo() *project {
	p.t.Helper()
	userGit(p.t, p.root, "init", "-q")
	userGit(p.t, p.root, "add", "-A")
	userGit(p.t, p.root, "commit", "-q", "--allow-empty", "-m", "initial")
	return p
}

// open opens the project's checkpoints with opts (Root and StateDir
// filled in).
func (p *project) open(opts checkpoint.Options) *checkpoint.Checkpoints {
	p.t.Helper()
	opts.Root, opts.StateDir = p.root, p.state
	c, err := checkpoint.Open(ctx(p.t), opts)
	if err != nil {
		p.t.Fatal(err)
	}
	return c
}

// path returns the absolute path of rel (slash-separated).
func (p *project) path(rel string) string { return filepath.Join(p.root, filepath.FromSlash(rel)) }

// write writes the file rel with mode 0644, creating its directories.
func (p *project) write(rel, content string) {
	p.t.Helper()
	p.writeMode(rel, content, 0o644)
}

// writeMode writes the file rel with mode perm.
func (p *project) writeMode(rel, content string, perm fs.FileMode) {
	p.t.Helper()
	path := p.path(rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		p.t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil {
		p.t.Fatal(err)
	}
}

// remove removes rel.
func (p *project) remove(rel string) {
	p.t.Helper()
	if err := os.Remove(p.path(rel)); err != nil {
		p.t.Fatal(err)
	}
}

// read returns the content of rel, or "<absent>".
func (p *project) read(rel string) string {
	p.t.Helper()
	data, err := os.ReadFile(p.path(rel))
	if os.IsNotExist(err) {
		return "<absent>"
	}
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// tree returns every file, link and directory below dir, each with its
// kind, mode and a hash of its content, so that two calls compare equal
// only when dir is byte for byte the same.
func tree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			out[rel] = "link " + target
		case d.IsDir():
			out[rel] = "dir " + info.Mode().Perm().String()
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			out[rel] = info.Mode().String() + " " + hex.EncodeToString(sum[:])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails the test where want and got differ, naming the paths.
func sameTree(t testing.TB, what string, want, got map[string]string) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got[k] != want[k] {
			t.Errorf("%s: %s was %q, is %q", what, k, want[k], got[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %s appeared: %q", what, k, got[k])
		}
	}
}

// text returns *s, or "<absent>" for nil.
func text(s *string) string {
	if s == nil {
		return "<absent>"
	}
	return *s
}

// summary describes changes as "path: before -> after" lines, paths
// relative to root.
func summary(root string, changes []checkpoint.Change) []string {
	var out []string
	for _, c := range changes {
		rel, _ := filepath.Rel(root, c.Path)
		out = append(out, filepath.ToSlash(rel)+": "+text(c.Before)+" -> "+text(c.After))
	}
	return out
}

// ctx is the context of a test: cancelled when it ends.
func ctx(t testing.TB) context.Context { return t.Context() }

// finish ends the turn on top of u's stack, as the session does when a
// turn ends, and fails the test when that fails.
func finish(t testing.TB, u checkpoint.Undoer) {
	t.Helper()
	if _, err := u.Finish(ctx(t)); err != nil {
		t.Fatal(err)
	}
}
