//go:build unix

package shell

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
)

// TestPresentRealGitDiff runs git diff through the bash tool in a real
// repository and shows its result: what git prints, not a fixture.
func TestPresentRealGitDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git on PATH")
	}
	// The user's git configuration (diff.noprefix, say) stays out of it.
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	f := newFixture(t, Options{})
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(f.dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com",
			"-c", "core.autocrlf=false", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = f.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write("sub dir/a.txt", "one\ntwo\nthree\n")
	write("crlf.txt", "x\r\ny\r\n")
	write("gone.txt", "bye\n")
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	write("sub dir/a.txt", "one\nTWO\nthree\n")
	write("crlf.txt", "x\r\nY\r\n")
	write("new.txt", "fresh")
	if err := os.Remove(filepath.Join(f.dir, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")

	args := bashArgs{Command: "git diff HEAD"}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	r, text := f.run(t, "bash", string(raw))
	if r.IsError {
		t.Fatalf("git diff failed: %s", text)
	}
	want := presentation.DiffResultView{Title: args.Command, Diffs: []presentation.FileDiff{
		{Path: "crlf.txt", OldText: strp("x\r\ny\r\n"), NewText: "x\r\nY\r\n", Line: 2},
		{Path: "gone.txt", OldText: strp("bye\n"), NewText: ""},
		{Path: "new.txt", NewText: "fresh", Line: 1},
		{Path: "sub dir/a.txt", OldText: strp("one\ntwo\nthree\n"), NewText: "one\nTWO\nthree\n", Line: 2},
	}}
	if got := presentBashResult(f.sh.ws, args, r.ToolResult()); !reflect.DeepEqual(got, want) {
		t.Errorf("presentBashResult =\n%#v\nwant\n%#v\nfrom\n%s", got, want, text)
	}
}
