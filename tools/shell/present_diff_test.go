package shell

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// testWorkspace is a workspace rooted at /srv/app, a directory no test
// machine has: the presenters only resolve paths against it.
func testWorkspace(t testing.TB) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.New("/srv/app", nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// oneFileDiff is git's diff of one changed line of a file, under the
// names git prints for its two sides.
func oneFileDiff(orig, next string) string {
	return "diff --git " + orig + " " + next + "\nindex 1111111..2222222 100644\n--- " + orig + "\n+++ " + next + "\n@@ -1 +1 @@\n-old\n+new\n"
}

// TestPresentDiffOnlyInsideTheWorkspace: a diff naming a file outside the
// workspace — by "..", by an absolute path, through a link out of it, or
// from a workdir outside — is shown as the text it is, never as a diff
// card the editor would open; a diff of files inside is a card.
func TestPresentDiffOnlyInsideTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "ws"), filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	linktest.Symlink(t, outside, filepath.Join(root, "out"))
	linktest.Symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "src", "notes.txt"))
	ws, err := workspace.New(root, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	card := func(path string) presentation.ResultView {
		return presentation.DiffResultView{Title: "git diff", Diffs: []presentation.FileDiff{{Path: path, OldText: strp("old\n"), NewText: "new\n", Line: 1}}}
	}
	tests := []struct {
		name   string
		args   bashArgs
		diff   string
		inside bool
		want   presentation.ResultView // when inside
	}{
		{name: "a file inside", args: bashArgs{Command: "git diff"}, diff: oneFileDiff("a/src/a.go", "b/src/a.go"), inside: true, want: card("src/a.go")},
		{name: "inside, from a workdir", args: bashArgs{Command: "git diff", Workdir: "src"}, diff: oneFileDiff("a/a.go", "b/a.go"), inside: true, want: card("src/a.go")},
		{name: "dot-dot out of the workspace", args: bashArgs{Command: "git diff"}, diff: oneFileDiff("a/../../etc/passwd", "b/../../etc/passwd")},
		{name: "dot-dot from a workdir", args: bashArgs{Command: "git diff", Workdir: "src"}, diff: oneFileDiff("a/../../x", "b/../../x")},
		{name: "an absolute path (--no-prefix)", args: bashArgs{Command: "git diff --no-prefix"}, diff: oneFileDiff("/etc/passwd", "/etc/passwd")},
		{name: "an absolute path behind the prefix", args: bashArgs{Command: "git diff"}, diff: oneFileDiff("a//etc/passwd", "b//etc/passwd")},
		{name: "a deleted file outside", args: bashArgs{Command: "git diff"}, diff: oneFileDiff("a/../secret", "/dev/null")},
		{name: "through a directory link out", args: bashArgs{Command: "git diff"}, diff: oneFileDiff("a/out/secret.txt", "b/out/secret.txt")},
		{name: "a file link out", args: bashArgs{Command: "git diff"}, diff: oneFileDiff("a/src/notes.txt", "b/src/notes.txt")},
		{name: "a workdir outside", args: bashArgs{Command: "git diff", Workdir: outside}, diff: oneFileDiff("a/secret.txt", "b/secret.txt")},
		{name: "one file outside among files inside", args: bashArgs{Command: "git diff"},
			diff: oneFileDiff("a/src/a.go", "b/src/a.go") + oneFileDiff("a/../../etc/passwd", "b/../../etc/passwd") + oneFileDiff("a/src/b.go", "b/src/b.go")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := []presentation.ContentBlock{presentation.Text(tt.diff)}
			got := presentBashResult(ws, tt.args, presentation.ToolResult{Content: text, Meta: `{"exitCode":0}`})
			want := tt.want
			if !tt.inside {
				want = presentation.GenericResultView{Content: []presentation.ContentBlock{presentation.Text("```console\n" + tt.diff + "```")}}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("presentBashResult =\n%#v\nwant\n%#v", got, want)
			}
		})
	}
}
