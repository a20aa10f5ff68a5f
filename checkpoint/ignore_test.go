package checkpoint_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
)

// TestIgnoredFilesUntouched: files the project ignores are neither
// recorded nor touched by a restore, whoever changed them; files the turn
// created elsewhere go.
func TestIgnoredFilesUntouched(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write(".gitignore", "*.log\nbuild/\n")
	p.write("sub/.gitignore", "local.env\n")
	p.write("app.log", "log before\n")
	p.write("sub/local.env", "SECRET=1\n")
	p.write("main.go", "package main\n")
	p.withUserRepo()
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	p.write("app.log", "log after\n")
	p.write("build/out.bin", "artifact\n")
	p.write("sub/local.env", "SECRET=2\n")
	p.write("created.go", "package main\n")
	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, []string{"created.go: package main\n -> <absent>"}) {
		t.Errorf("changes = %q", got)
	}
	for rel, want := range map[string]string{
		"app.log": "log after\n", "build/out.bin": "artifact\n", "sub/local.env": "SECRET=2\n", "created.go": "<absent>",
	} {
		if got := p.read(rel); got != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
}

// TestIgnoreRulesChangedByTheTurn: when the turn stops ignoring a file
// that existed, undoing it restores the .gitignore and leaves the file:
// it is not taken for one the turn created.
func TestIgnoreRulesChangedByTheTurn(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write(".gitignore", "*.log\n")
	p.write("keep.log", "precious\n")
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	p.write(".gitignore", "# nothing ignored\n")
	p.write("keep.log", "precious, edited\n")
	p.write("new.log", "made by the turn, ignored again after the undo\n")
	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, []string{".gitignore: # nothing ignored\n -> *.log\n"}) {
		t.Errorf("changes = %q", got)
	}
	if got := p.read("keep.log"); got != "precious, edited\n" {
		t.Errorf("keep.log = %q", got)
	}
	if got := p.read("new.log"); got == "<absent>" {
		t.Errorf("new.log was removed, though ignored under the restored rules")
	}
}

// TestRootBelowUserRepo: opened on a subdirectory of a repository, the
// checkpoint honours the ignore patterns of the .gitignore files above
// it that reach into it, and of the repository's info/exclude.
func TestRootBelowUserRepo(t *testing.T) {
	needGit(t)
	top := newProject(t)
	top.write(".gitignore", "node_modules/\n/pkg/app/dist/\n/other/\n*.tmp\n")
	top.write("pkg/.gitignore", "/app/cache/\n")
	top.write("pkg/app/src/main.js", "main\n")
	top.withUserRepo()
	os.WriteFile(top.path(".git/info/exclude"), []byte("secret.txt\n"), 0o644)
	userGitBefore := tree(t, top.path(".git"))

	p := &project{t: t, root: top.path("pkg/app"), state: t.TempDir()}
	p.write("node_modules/dep/index.js", "dep\n")
	p.write("dist/bundle.js", "bundle\n")
	p.write("cache/x", "cache\n")
	p.write("scratch.tmp", "tmp\n")
	p.write("secret.txt", "secret\n")
	p.write("other/kept.txt", "an /other/ at the top does not reach here\n")
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"node_modules/dep/index.js", "dist/bundle.js", "cache/x", "scratch.tmp", "secret.txt", "other/kept.txt", "src/main.js"} {
		p.remove(rel)
	}
	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"other/kept.txt: <absent> -> an /other/ at the top does not reach here\n",
		"src/main.js: <absent> -> main\n",
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, want) {
		t.Errorf("changes = %q, want %q", got, want)
	}
	sameTree(t, "the user's .git", userGitBefore, tree(t, top.path(".git")))
}

// TestNestedRepositorySkipped: a git repository inside the workspace is
// left out (and reported); its files and its .git stay as they are.
func TestNestedRepositorySkipped(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("app.txt", "app\n")
	p.withUserRepo()
	p.write("vendor/lib/lib.txt", "lib v1\n")
	userGit(t, p.path("vendor/lib"), "init", "-q")
	userGit(t, p.path("vendor/lib"), "add", "-A")
	userGit(t, p.path("vendor/lib"), "commit", "-q", "-m", "lib")
	p.write("empty-repo/file.txt", "in a repository without commits\n")
	userGit(t, p.path("empty-repo"), "init", "-q")
	nestedGit := tree(t, p.path("vendor/lib/.git"))

	c := p.open(checkpoint.Options{})
	cp, err := c.Push(ctx(t), "before")
	if err != nil {
		t.Fatal(err)
	}
	var skipped []string
	for _, s := range cp.Skipped {
		if s.Reason == checkpoint.ReasonNestedRepository {
			skipped = append(skipped, s.Path)
		}
	}
	if want := []string{p.path("empty-repo"), p.path("vendor/lib")}; !slices.Equal(skipped, want) {
		t.Errorf("skipped nested repositories = %q, want %q", skipped, want)
	}
	p.write("vendor/lib/lib.txt", "lib v2\n")
	p.write("app.txt", "app changed\n")
	finish(t, c)
	if _, err := c.Undo(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if got := p.read("app.txt"); got != "app\n" {
		t.Errorf("app.txt = %q", got)
	}
	if got := p.read("vendor/lib/lib.txt"); got != "lib v2\n" {
		t.Errorf("the nested repository's file was restored: %q", got)
	}
	sameTree(t, "the nested .git", nestedGit, tree(t, p.path("vendor/lib/.git")))
}

// TestStateDirInsideRoot: a state directory inside the workspace is never
// recorded, so undo cannot remove the checkpoints themselves.
func TestStateDirInsideRoot(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a.txt", "a\n")
	p.state = p.path(".state")
	c := p.open(checkpoint.Options{})
	cp, err := c.Push(ctx(t), "before")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(p.state, "index.json"), []byte("{}"), 0o600) // the session store's
	finish(t, c)
	if _, err := c.Push(ctx(t), "again"); err != nil {
		t.Fatal(err)
	}
	finish(t, c)
	changes, err := c.Changes(ctx(t), cp.ID, "")
	if err != nil || len(changes) != 0 {
		t.Errorf("Changes = %q, %v; want none", summary(p.root, changes), err)
	}
	for range 2 {
		if _, err := c.Undo(ctx(t)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"checkpoints", "index.json"} {
		if _, err := os.Stat(filepath.Join(p.state, name)); err != nil {
			t.Errorf("the state directory: %v", err)
		}
	}
}

// TestIgnoreRulesChangedTwice: when the turn stops ignoring a file that
// existed and the user changes the .gitignore again after the turn, the
// .gitignore stays the user's, and the file the turn seems to have
// created stays too: it may have been there, ignored, before the turn.
func TestIgnoreRulesChangedTwice(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write(".gitignore", "*.log\n")
	p.write("keep.log", "precious\n")
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	p.write(".gitignore", "# nothing ignored\n")
	p.write("keep.log", "precious, edited by the turn\n")
	finish(t, c)
	p.write(".gitignore", "# the user's rules now\n")
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]checkpoint.Reason{
		".gitignore": checkpoint.ReasonChangedSince,
		"keep.log":   checkpoint.ReasonIgnoreRulesChanged,
	}
	if got := conflictsOf(p, restored); !maps.Equal(got, want) {
		t.Errorf("conflicts = %q, want %q", got, want)
	}
	if p.read(".gitignore") != "# the user's rules now\n" || p.read("keep.log") != "precious, edited by the turn\n" {
		t.Errorf(".gitignore = %q, keep.log = %q", p.read(".gitignore"), p.read("keep.log"))
	}
}
