package fs_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

// presentApproval runs the card the tool's approval shows.
func (e *env) presentApproval(name string, args any) presentation.CallView {
	e.t.Helper()
	return bind(e.tools[name], arguments(e.t, args)).PresentApproval(context.Background())
}

// TestApprovalShowsTheRealHunks: the approval of a write or an edit shows
// the hunks the call would apply to the file as it is when it asks —
// context lines and whole changed lines, each with its line break as the
// file has it, located at the first changed line — where the pending card
// shows only the arguments (issue 17: CodeCompanion's approval showed
// "-world +acp" on one line).
func TestApprovalShowsTheRealHunks(t *testing.T) {
	const file = "a\nb\nc\nhello world\nd\ne\nf\ng\n"
	tests := []struct {
		name   string
		before *string // the file as it is when the call asks; nil: none
		tool   string
		args   map[string]any
		want   presentation.CallView
	}{
		{"edit: context and whole lines", ptr(file), "edit",
			map[string]any{"file_path": "f.txt", "old_string": "world", "new_string": "acp"},
			presentation.DiffCallView{
				Title: "Edit f.txt",
				Diffs: []presentation.FileDiff{{Path: "f.txt", Line: 4,
					OldText: ptr("a\nb\nc\nhello world\nd\ne\nf\n"), NewText: "a\nb\nc\nhello acp\nd\ne\nf\n"}},
				Locations: []presentation.FileLocation{{Path: "f.txt", Line: 4}},
			}},
		{"edit: a file without a final newline lacks it on its last line only", ptr("1\n2\n3\n4\n5\n6\nlast"), "edit",
			map[string]any{"file_path": "f.txt", "old_string": "5", "new_string": "five"},
			presentation.DiffCallView{
				Title:     "Edit f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", Line: 5, OldText: ptr("2\n3\n4\n5\n6\nlast"), NewText: "2\n3\n4\nfive\n6\nlast"}},
				Locations: []presentation.FileLocation{{Path: "f.txt", Line: 5}},
			}},
		{"edit: CRLF kept", ptr("one\r\ntwo\r\nthree\r\n"), "edit",
			map[string]any{"file_path": "f.txt", "old_string": "two", "new_string": "2\nand more"},
			presentation.DiffCallView{
				Title:     "Edit f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", Line: 2, OldText: ptr("one\r\ntwo\r\nthree\r\n"), NewText: "one\r\n2\r\nand more\r\nthree\r\n"}},
				Locations: []presentation.FileLocation{{Path: "f.txt", Line: 2}},
			}},
		{"edit: a create shows the whole new file", nil, "edit",
			map[string]any{"file_path": "f.txt", "old_string": "", "new_string": "new\nfile\n"},
			presentation.DiffCallView{
				Title:     "Edit f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", Line: 1, NewText: "new\nfile\n"}},
				Locations: []presentation.FileLocation{{Path: "f.txt", Line: 1}},
			}},
		{"edit that would fail: the pending card", ptr(file), "edit",
			map[string]any{"file_path": "f.txt", "old_string": "absent", "new_string": "x"},
			presentation.DiffCallView{
				Title:     "Edit f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", OldText: ptr("absent"), NewText: "x"}},
				Locations: []presentation.FileLocation{{Path: "f.txt"}},
			}},
		{"write over a file: its hunks", ptr(file), "write",
			map[string]any{"file_path": "f.txt", "content": "a\nb\nc\nhello world\nd\ne\nf\nG\n"},
			presentation.DiffCallView{
				Title:     "Write f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", Line: 8, OldText: ptr("d\ne\nf\ng\n"), NewText: "d\ne\nf\nG\n"}},
				Locations: []presentation.FileLocation{{Path: "f.txt", Line: 8}},
			}},
		{"write that only drops the final newline", ptr(file), "write",
			map[string]any{"file_path": "f.txt", "content": "a\nb\nc\nhello world\nd\ne\nf\ng"},
			presentation.DiffCallView{
				Title:     "Write f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", Line: 8, OldText: ptr("d\ne\nf\ng\n"), NewText: "d\ne\nf\ng"}},
				Locations: []presentation.FileLocation{{Path: "f.txt", Line: 8}},
			}},
		{"write of a new file: the pending card", nil, "write",
			map[string]any{"file_path": "f.txt", "content": "fresh\n"},
			presentation.DiffCallView{
				Title:     "Write f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", NewText: "fresh\n"}},
				Locations: []presentation.FileLocation{{Path: "f.txt"}},
			}},
		{"write over a binary file: the pending card", ptr("\x00\x01"), "write",
			map[string]any{"file_path": "f.txt", "content": "text\n"},
			presentation.DiffCallView{
				Title:     "Write f.txt",
				Diffs:     []presentation.FileDiff{{Path: "f.txt", NewText: "text\n"}},
				Locations: []presentation.FileLocation{{Path: "f.txt"}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, fs.Options{})
			if tt.before != nil {
				e.put("f.txt", *tt.before)
			}
			if got := e.presentApproval(tt.tool, tt.args); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("approval card\n%#v\nwant\n%#v", got, tt.want)
			}
			// Showing the card changed nothing.
			if tt.before != nil && e.get("f.txt") != *tt.before {
				t.Errorf("the approval changed the file to %q", e.get("f.txt"))
			}
			noTempFiles(t, e.dir)
		})
	}
}

// TestApprovalNeverReadsOutside: the approval of a write or an edit of a
// file outside the workspace (named outright or through a link) shows the
// pending card: its content is not read before the user has answered.
func TestApprovalNeverReadsOutside(t *testing.T) {
	e := newEnv(t, fs.Options{})
	outside := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(outside, []byte("secret key material\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	linktest.Symlink(t, filepath.Dir(outside), e.path("link"))
	for _, path := range []string{outside, "link/id_ed25519"} {
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"edit", map[string]any{"file_path": path, "old_string": "key", "new_string": "x"}},
			{"write", map[string]any{"file_path": path, "content": "x\n"}},
		} {
			got := e.presentApproval(call.tool, call.args)
			if want := e.presentCall(call.tool, call.args); !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: approval card\n%#v\nwant the pending card\n%#v", call.tool, path, got, want)
			}
		}
	}
}

// TestApprovalReadsAsTheToolDoes: the approval's hunks come from the file
// as the tool's FileSystem reads it (an editor's unsaved buffer), and
// showing them writes nothing.
func TestApprovalReadsAsTheToolDoes(t *testing.T) {
	ed := &editorBuffers{}
	e := newEnvFS(t, fs.Options{}, ed)
	path := e.put("f.txt", "on disk\n")
	ed.reset(map[string]string{path: "in the buffer\n"})
	view, ok := e.presentApproval("edit", map[string]any{"file_path": "f.txt", "old_string": "buffer", "new_string": "editor"}).(presentation.DiffCallView)
	if !ok || len(view.Diffs) != 1 || view.Diffs[0].Old() != "in the buffer\n" || view.Diffs[0].NewText != "in the editor\n" {
		t.Errorf("approval card %#v, want the buffer's hunk", view)
	}
	view, ok = e.presentApproval("write", map[string]any{"file_path": "f.txt", "content": "written\n"}).(presentation.DiffCallView)
	if !ok || len(view.Diffs) != 1 || view.Diffs[0].Old() != "in the buffer\n" {
		t.Errorf("approval card %#v, want the buffer's hunk", view)
	}
	if len(ed.writes) != 0 {
		t.Errorf("showing the approval wrote %v", ed.writes)
	}
}
