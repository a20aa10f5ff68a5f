//go:build unix

package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
)

// gitLab is a scratch home for real git runs: its own HOME (no user
// configuration) and a marker script that hostile settings point at.
type gitLab struct {
	t      *testing.T
	home   string
	marker string // the file the hostile program creates
	script string // the hostile program
}

func newGitLab(t *testing.T) *gitLab {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	l := &gitLab{t: t, home: home, marker: filepath.Join(home, "ran"), script: filepath.Join(home, "hostile.sh")}
	if err := os.WriteFile(l.script, []byte("#!/bin/sh\ntouch '"+l.marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return l
}

// parent is the environment dsh-acp would inherit, without the machine's
// own git configuration.
func (l *gitLab) parent(extra ...string) []string {
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + l.home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a",
		"GIT_COMMITTER_EMAIL=a@example.com"}, extra...)
}

// git runs git in dir with env and returns its combined output.
func (l *gitLab) git(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// must runs git and fails the test when it fails.
func (l *gitLab) must(dir string, args ...string) string {
	l.t.Helper()
	out, err := l.git(dir, l.parent(), args...)
	if err != nil {
		l.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// ran reports whether the hostile program ran, and forgets it.
func (l *gitLab) ran() bool {
	_, err := os.Stat(l.marker)
	os.Remove(l.marker)
	return err == nil
}

// repo makes a repository with one commit and a changed file at dir.
// staleStat gives dir's unchanged g.txt, when it has one, a modification
// time its index entry does not hold, so that the next git status
// refreshes the entry and writes the index (what runs a
// post-index-change hook) instead of depending on the clock's luck.
func (l *gitLab) staleStat(dir string) {
	l.t.Helper()
	g := filepath.Join(dir, "g.txt")
	info, err := os.Stat(g)
	if err != nil {
		return
	}
	later := info.ModTime().Add(time.Minute)
	if err := os.Chtimes(g, later, later); err != nil {
		l.t.Fatal(err)
	}
}

func (l *gitLab) repo(dir string) {
	l.t.Helper()
	l.must(l.home, "init", "-q", dir)
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\n"), 0o644); err != nil {
		l.t.Fatal(err)
	}
	// g.txt stays as committed: touching it (staleStat) makes git status
	// refresh its entry and so rewrite the index.
	if err := os.WriteFile(filepath.Join(dir, "g.txt"), []byte("g\n"), 0o644); err != nil {
		l.t.Fatal(err)
	}
	l.must(dir, "add", "f.txt", "g.txt")
	l.must(dir, "commit", "-qm", "one")
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nb\n"), 0o644); err != nil {
		l.t.Fatal(err)
	}
}

// TestGitHardened runs real git with a command's environment against the
// shapes of issue 16: a bare repository laid out inside the workspace
// whose config names programs (diff.external, a textconv driver its
// info/attributes applies to every file),
// a repository config naming an fsmonitor, a hooks path holding a
// post-index-change hook. Each case first shows that git runs the program
// with the plain environment, then that it does not with childEnv's.
func TestGitHardened(t *testing.T) {
	l := newGitLab(t)
	ws := filepath.Join(l.home, "ws")
	l.repo(ws)

	// A bare repository inside the workspace, as a hostile tree can hold.
	src := filepath.Join(l.home, "src")
	l.repo(src)
	l.must(src, "commit", "-qam", "two")
	bare := filepath.Join(ws, "tools")
	l.must(l.home, "clone", "-q", "--bare", src, bare)
	for _, kv := range [][2]string{{"core.fsmonitor", l.script}, {"diff.external", l.script}, {"diff.evil.textconv", l.script}} {
		l.must(l.home, "config", "--file", filepath.Join(bare, "config"), kv[0], kv[1])
	}
	if err := os.WriteFile(filepath.Join(bare, "info", "attributes"), []byte("* diff=evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	// A repository whose own config names an fsmonitor, and one whose
	// hooks path (husky's way) holds a post-index-change hook.
	monitored := filepath.Join(l.home, "monitored")
	l.repo(monitored)
	l.must(monitored, "config", "core.fsmonitor", l.script)
	hooked := filepath.Join(l.home, "hooked")
	l.repo(hooked)
	hooks := filepath.Join(hooked, ".hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	linktest.Symlink(t, l.script, filepath.Join(hooks, "post-index-change"))
	l.must(hooked, "config", "core.hooksPath", ".hooks")

	for _, tt := range []struct {
		name string
		dir  string
		args []string
	}{
		{"bare layout: git diff runs diff.external", bare, []string{"diff", "HEAD~1", "HEAD"}},
		{"bare layout: git log -p runs a textconv driver", bare, []string{"log", "-p", "-1"}},
		{"bare layout: git show runs a textconv driver", bare, []string{"show"}},
		{"git status runs core.fsmonitor", monitored, []string{"status"}},
		{"git status runs post-index-change", hooked, []string{"status"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l.ran()
			l.staleStat(tt.dir)
			l.git(tt.dir, append(l.parent(), "TERM=dumb", "PAGER=cat"), tt.args...)
			if !l.ran() {
				t.Fatal("with the plain environment the program did not run: the setup shows nothing")
			}
			l.staleStat(tt.dir)
			out, _ := l.git(tt.dir, childEnv(l.parent(), nil, "c"), tt.args...)
			if l.ran() {
				t.Errorf("git %s ran the hostile program with childEnv's environment\n%s", strings.Join(tt.args, " "), out)
			}
		})
	}
}

// TestGitHardenedKeepsTheUser: the hardening comes after the user's own
// GIT_CONFIG_* settings, which still apply, and an allowed git commit
// still runs the user's hooks (hooks are left alone).
func TestGitHardenedKeepsTheUser(t *testing.T) {
	l := newGitLab(t)
	dir := filepath.Join(l.home, "repo")
	l.repo(dir)
	env := childEnv(l.parent("GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.signingkey", "GIT_CONFIG_VALUE_0=mine"), nil, "c")
	for key, want := range map[string]string{"user.signingkey": "mine", "safe.bareRepository": "explicit", "core.fsmonitor": "false"} {
		out, err := l.git(dir, env, "config", "--get", key)
		if err != nil || strings.TrimSpace(out) != want {
			t.Errorf("git config --get %s = %q, %v; want %q", key, out, err, want)
		}
	}
	hooks := filepath.Join(dir, ".git", "hooks")
	linktest.Symlink(t, l.script, filepath.Join(hooks, "pre-commit"))
	if out, err := l.git(dir, env, "commit", "-qam", "two"); err != nil {
		t.Fatalf("git commit with childEnv's environment: %v\n%s", err, out)
	}
	if !l.ran() {
		t.Error("git commit with childEnv's environment skipped the user's pre-commit hook")
	}
}
