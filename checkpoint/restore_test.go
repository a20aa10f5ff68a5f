package checkpoint_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/checkpoint"
	"github.com/dsh-acp/dsh-acp/internal/linktest"
)

// TestUndoRestoresToolAndCommandChanges: a turn writes a new file, edits
// one, overwrites one with a command (echo x > f) and removes one (rm g);
// Changes lists all four, Undo puts all four back and says so, and the
// user's own .git is byte-identical throughout.
func TestUndoRestoresToolAndCommandChanges(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("edit.go", "package main\n\nfunc main() {}\n")
	p.write("f", "old f\n")
	p.write("dir/g", "gone soon\n")
	p.withUserRepo()
	userGitBefore := tree(t, p.path(".git"))
	workBefore := tree(t, p.root)
	delete(workBefore, ".git")

	c := p.open(checkpoint.Options{})
	cp, err := c.Push(ctx(t), "turn 1")
	if err != nil {
		t.Fatal(err)
	}
	p.write("new.txt", "written by the write tool\n")                       // write
	p.write("edit.go", "package main\n\nfunc main() { println(1) }\n")      // edit
	p.write("f", "x\n")                                                     // echo x > f
	p.remove("dir/g")                                                       // rm g
	if err := os.Remove(p.path("dir")); err != nil && !os.IsNotExist(err) { // the directory g leaves empty
		t.Fatal(err)
	}

	changes, err := c.Changes(ctx(t), cp.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"dir/g: gone soon\n -> <absent>",
		"edit.go: package main\n\nfunc main() {}\n -> package main\n\nfunc main() { println(1) }\n",
		"f: old f\n -> x\n",
		"new.txt: <absent> -> written by the write tool\n",
	}
	if got := summary(p.root, changes); !slices.Equal(got, want) {
		t.Errorf("Changes =\n%q\nwant\n%q", got, want)
	}

	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	wantRestored := []string{
		"dir/g: <absent> -> gone soon\n",
		"edit.go: package main\n\nfunc main() { println(1) }\n -> package main\n\nfunc main() {}\n",
		"f: x\n -> old f\n",
		"new.txt: written by the write tool\n -> <absent>",
	}
	if got := summary(p.root, restored.Changes); !slices.Equal(got, wantRestored) {
		t.Errorf("Undo changes =\n%q\nwant\n%q", got, wantRestored)
	}
	if restored.Checkpoint.ID != cp.ID || restored.Checkpoint.Label != "turn 1" {
		t.Errorf("restored checkpoint = %+v, want %+v", restored.Checkpoint, cp)
	}
	workAfter := tree(t, p.root)
	delete(workAfter, ".git")
	sameTree(t, "work tree", workBefore, workAfter)
	sameTree(t, "the user's .git", userGitBefore, tree(t, p.path(".git")))
	if _, err := c.Undo(ctx(t)); !errors.Is(err, checkpoint.ErrNothingToUndo) {
		t.Errorf("second Undo: %v, want ErrNothingToUndo", err)
	}
}

// TestRestoreKeepsBytes: line endings, a missing final newline, binary
// content and text that is not UTF-8 come back byte for byte, even where
// the project's .gitattributes asks git to convert line endings.
func TestRestoreKeepsBytes(t *testing.T) {
	needGit(t)
	binary := make([]byte, 3000)
	for i := range binary {
		binary[i] = byte(i * 7)
	}
	tests := []struct {
		name    string
		content string
		binary  bool
	}{
		{"crlf", "one\r\ntwo\r\n", false},
		{"no final newline", "one\ntwo", false},
		{"crlf without final newline", "one\r\ntwo", false},
		{"mixed endings", "a\r\nb\nc\r", false},
		{"empty", "", false},
		{"lone cr", "\r", false},
		{"binary", string(binary), true},
		{"latin-1", "caf\xe9\n", true},
		{"utf-8 bom", "\ufeffhello\r\n", false},
	}
	p := newProject(t)
	p.write(".gitattributes", "* text=auto eol=lf\n*.txt eol=crlf filter=lfs\n")
	for i, tt := range tests {
		p.write(filepath.Join("files", string(rune('a'+i))+".txt"), tt.content)
	}
	p.withUserRepo()
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	for i := range tests {
		p.write(filepath.Join("files", string(rune('a'+i))+".txt"), "replaced\n")
	}
	finish(t, c)
	restored, err := c.Undo(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel := filepath.Join("files", string(rune('a'+i))+".txt")
			if got := p.read(rel); got != tt.content {
				t.Errorf("content = %q, want %q", got, tt.content)
			}
			i := slices.IndexFunc(restored.Changes, func(c checkpoint.Change) bool { return c.Path == p.path(rel) })
			if i < 0 {
				t.Fatalf("no change for %s", rel)
			}
			change := restored.Changes[i]
			if change.Binary != tt.binary {
				t.Errorf("Binary = %v, want %v", change.Binary, tt.binary)
			}
			switch {
			case change.After == nil || change.Before == nil:
				t.Errorf("a side is nil: %+v", change)
			case tt.binary && (*change.After != "" || *change.Before != ""):
				t.Errorf("a binary change holds text: %+v", change)
			case !tt.binary && *change.After != tt.content:
				t.Errorf("After = %q, want %q", *change.After, tt.content)
			}
		})
	}
}

// TestRestoreTypeChanges: a file that became a directory, a directory
// that became a file, a file that became a symbolic link and back, and a
// directory replaced by a link to somewhere outside: each comes back, and
// nothing is written through the link.
func TestRestoreTypeChanges(t *testing.T) {
	needGit(t)
	p := newProject(t)
	outside := t.TempDir()
	p.write("was-file", "a file\n")
	p.write("was-dir/inner.txt", "inner\n")
	p.write("to-link", "a file, then a link\n")
	linktest.Symlink(t, "was-file", p.path("link"))
	p.write("linked-dir/x.txt", "x\n")
	before := tree(t, p.root)
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}

	p.remove("was-file")
	p.write("was-file/now-inside.txt", "inside\n")
	os.RemoveAll(p.path("was-dir"))
	p.write("was-dir", "now a file\n")
	p.remove("to-link")
	linktest.Symlink(t, "was-dir", p.path("to-link"))
	p.remove("link")
	p.write("link", "a file now\n")
	os.RemoveAll(p.path("linked-dir"))
	linktest.Symlink(t, outside, p.path("linked-dir"))

	finish(t, c)
	if _, err := c.Undo(ctx(t)); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "work tree", before, tree(t, p.root))
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the restore wrote through the link: %v", entries)
	}
}

// TestRestoreModes: permissions of an existing file stay, the executable
// bit comes back as it was, and recreated files get 0644 or 0755.
func TestRestoreModes(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.writeMode("run.sh", "#!/bin/sh\necho hi\n", 0o755)
	p.writeMode("secret.txt", "private\n", 0o600)
	p.writeMode("became-exec.txt", "plain\n", 0o644)
	p.writeMode("deleted.sh", "#!/bin/sh\n", 0o755)
	c := p.open(checkpoint.Options{})
	if _, err := c.Push(ctx(t), "before"); err != nil {
		t.Fatal(err)
	}
	p.writeMode("run.sh", "#!/bin/sh\necho changed\n", 0o755)
	p.writeMode("secret.txt", "changed\n", 0o600)
	os.Chmod(p.path("became-exec.txt"), 0o755)
	p.remove("deleted.sh")
	finish(t, c)
	if _, err := c.Undo(ctx(t)); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]os.FileMode{"run.sh": 0o755, "secret.txt": 0o600, "became-exec.txt": 0o644, "deleted.sh": 0o755} {
		info, err := os.Stat(p.path(rel))
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", rel, info.Mode().Perm(), want)
		}
	}
	if got := p.read("secret.txt"); got != "private\n" {
		t.Errorf("secret.txt = %q", got)
	}
}

// TestRestoreWithoutUserRepo: a workspace that is no git repository of
// its own is checkpointed and restored the same way, and gets no .git.
func TestRestoreWithoutUserRepo(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a/b/c.txt", "deep\n")
	p.write("top.txt", "top\n")
	before := tree(t, p.root)
	c := p.open(checkpoint.Options{})
	cp, err := c.Push(ctx(t), "before")
	if err != nil {
		t.Fatal(err)
	}
	p.write("a/b/c.txt", "changed\n")
	p.write("a/new/d/e.txt", "new\n")
	p.remove("top.txt")
	restored, err := c.Restore(ctx(t), cp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(restored.Changes) != 3 {
		t.Errorf("changes: %q", summary(p.root, restored.Changes))
	}
	sameTree(t, "work tree", before, tree(t, p.root))
	// Restore keeps the checkpoint: a second restore finds nothing to do.
	restored, err = c.Restore(ctx(t), cp.ID)
	if err != nil || len(restored.Changes) != 0 {
		t.Errorf("second Restore = %q, %v", summary(p.root, restored.Changes), err)
	}
}

// TestUnknownCheckpoint: ids that name no checkpoint are refused.
func TestUnknownCheckpoint(t *testing.T) {
	needGit(t)
	p := newProject(t)
	p.write("a.txt", "a\n")
	c := p.open(checkpoint.Options{})
	cp, err := c.Snapshot(ctx(t), "one")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, id string }{
		{"not hex", "../../etc/passwd"},
		{"short", "abc123"},
		{"absent", "0123456789abcdef0123456789abcdef01234567"},
		{"upper case", bytesUpper(cp.ID)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.Restore(ctx(t), tt.id); !errors.Is(err, checkpoint.ErrUnknownCheckpoint) {
				t.Errorf("Restore: %v, want ErrUnknownCheckpoint", err)
			}
			if _, err := c.Changes(ctx(t), tt.id, ""); !errors.Is(err, checkpoint.ErrUnknownCheckpoint) {
				t.Errorf("Changes: %v, want ErrUnknownCheckpoint", err)
			}
		})
	}
}

func bytesUpper(s string) string { return string(bytes.ToUpper([]byte(s))) }
