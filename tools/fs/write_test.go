package fs_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name    string
		before  *string // nil: the file does not exist
		path    string
		content string
		text    string // the model-facing text
		value   fs.WriteResult
	}{
		{"create", nil, "a.txt", "one\ntwo\n", "Created a.txt (2 lines).",
			fs.WriteResult{Path: "a.txt", Operation: "create", Lines: 2, Diffs: []fs.Hunk{}}},
		{"create with parents", nil, "x/y/z.txt", "z\n", "Created " + filepath.FromSlash("x/y/z.txt") + " (1 line).",
			fs.WriteResult{Path: filepath.FromSlash("x/y/z.txt"), Operation: "create", Lines: 1, Diffs: []fs.Hunk{}}},
		{"create empty", nil, "e.txt", "", "Created e.txt (0 lines).",
			fs.WriteResult{Path: "e.txt", Operation: "create", Lines: 0, Diffs: []fs.Hunk{}}},
		{"update", ptr("old\n"), "a.txt", "new\n", "Wrote 1 line to a.txt.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 1, Diffs: []fs.Hunk{{Path: "a.txt", OldText: ptr("old\n"), NewText: "new\n", Line: 1}}}},
		{"no final newline written as given", ptr("old\n"), "a.txt", "a\nb", "Wrote 2 lines to a.txt.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 2, Diffs: []fs.Hunk{{Path: "a.txt", OldText: ptr("old\n"), NewText: "a\nb", Line: 1}}}},
		{"CRLF written and shown as given", ptr("a\r\nb\r\n"), "a.txt", "a\r\nc\r\n", "Wrote 2 lines to a.txt.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 2, Diffs: []fs.Hunk{{Path: "a.txt", OldText: ptr("a\r\nb\r\n"), NewText: "a\r\nc\r\n", Line: 2}}}},
		{"changing the line endings changes every line", ptr("a\r\nb\r\n"), "a.txt", "a\nb\n", "Wrote 2 lines to a.txt.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 2, Diffs: []fs.Hunk{{Path: "a.txt", OldText: ptr("a\r\nb\r\n"), NewText: "a\nb\n", Line: 1}}}},
		{"a final newline taken away shows on the last line only", ptr("1\n2\n3\n4\n5\n6\n7\n8\n"), "a.txt", "1\n2\n3\n4\n5\n6\n7\n8", "Wrote 8 lines to a.txt.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 8, Diffs: []fs.Hunk{{Path: "a.txt", OldText: ptr("5\n6\n7\n8\n"), NewText: "5\n6\n7\n8", Line: 8}}}},
		{"identical", ptr("same\n"), "a.txt", "same\n", "a.txt already had this content (1 line); nothing changed.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 1, Unchanged: true, Diffs: []fs.Hunk{}}},
		{"non-UTF-8 previous file", ptr("caf\xe9\n"), "a.txt", "café\n", "Wrote 1 line to a.txt.",
			fs.WriteResult{Path: "a.txt", Operation: "update", Lines: 1, Diffs: []fs.Hunk{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, fs.Options{})
			if tt.before != nil {
				e.put(tt.path, *tt.before)
			}
			res := e.ok("write", map[string]any{"file_path": tt.path, "content": tt.content})
			if got := text(res); got != tt.text {
				t.Errorf("text %q, want %q", got, tt.text)
			}
			var value fs.WriteResult
			if err := json.Unmarshal([]byte(res.Value), &value); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(value, tt.value) {
				t.Errorf("value %+v\nwant %+v", value, tt.value)
			}
			if got := e.get(tt.path); got != tt.content {
				t.Errorf("file holds %q, want %q", got, tt.content)
			}
			noTempFiles(t, e.dir)
		})
	}
}

func TestWriteRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(e *env)
		path  string
		code  string
		want  string
	}{
		{"directory", func(e *env) { os.Mkdir(e.path("d"), 0o755) }, "d", fs.CodeIsDirectory, "d is a directory: write needs the path of a file"},
		{"parent is a file", func(e *env) { e.put("f.txt", "x") }, "f.txt/sub.txt", fs.CodeNotDirectory, "cannot write " + filepath.FromSlash("f.txt/sub.txt") + ": a parent in the path is a file"},
		{"grandparent is a file", func(e *env) { e.put("f.txt", "x") }, "f.txt/a/b.txt", fs.CodeNotDirectory, "a parent in the path is a file"},
		{"read-only file", func(e *env) { os.Chmod(e.put("ro.txt", "x"), 0o444) }, "ro.txt", fs.CodeReadOnly, "ro.txt is read-only (mode 0444): write will not replace it"},
		{"empty path", nil, "", fs.CodeBadArgs, "file_path must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, fs.Options{})
			if tt.setup != nil {
				tt.setup(e)
			}
			res := e.fail("write", map[string]any{"file_path": tt.path, "content": "new\n"}, tt.code)
			if got := text(res); !strings.Contains(got, tt.want) {
				t.Errorf("message %q lacks %q", got, tt.want)
			}
			noTempFiles(t, e.dir)
		})
	}
	t.Run("schema: content missing", func(t *testing.T) {
		e := newEnv(t, fs.Options{})
		res := e.fail("write", `{"file_path":"a.txt"}`, fs.CodeBadArgs)
		if !strings.Contains(text(res), `missing required property "content"`) {
			t.Errorf("message %q", text(res))
		}
	})
	t.Run("read-only file unchanged", func(t *testing.T) {
		e := newEnv(t, fs.Options{})
		os.Chmod(e.put("ro.txt", "keep\n"), 0o444)
		e.fail("write", map[string]any{"file_path": "ro.txt", "content": "new\n"}, fs.CodeReadOnly)
		if got := e.get("ro.txt"); got != "keep\n" {
			t.Errorf("file holds %q", got)
		}
	})
}

func TestWritePermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads and writes files whatever their mode")
	}
	e := newEnv(t, fs.Options{})
	p := e.put("secret.txt", "x\n")
	if err := os.Chmod(p, 0o200); err != nil { // writable, not readable
		t.Fatal(err)
	}
	e.fail("write", map[string]any{"file_path": "secret.txt", "content": "y\n"}, fs.CodePermission)
	if err := os.Mkdir(e.path("locked"), 0o500); err != nil {
		t.Fatal(err)
	}
	e.fail("write", map[string]any{"file_path": "locked/a.txt", "content": "y\n"}, fs.CodePermission)
	noTempFiles(t, e.path("locked"))
}

func TestWriteKeepsMode(t *testing.T) {
	e := newEnv(t, fs.Options{})
	p := e.put("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	e.ok("write", map[string]any{"file_path": "run.sh", "content": "#!/bin/sh\necho hi\n"})
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o755 {
		t.Errorf("mode %o, want 755", info.Mode().Perm())
	}
}

// F19, F24–F27, F29: write's cards.
func TestWritePresent(t *testing.T) {
	e := newEnv(t, fs.Options{})
	lines := "a\nb\nc\nd\ne\nf\ng\nh\n"
	e.put("a.txt", lines)

	t.Run("F19 call card", func(t *testing.T) {
		got := e.presentCall("write", map[string]any{"file_path": "a.txt", "content": "fresh\n"})
		want := presentation.DiffCallView{
			Title:     "Write a.txt",
			Diffs:     []presentation.FileDiff{{Path: "a.txt", OldText: nil, NewText: "fresh\n"}},
			Locations: []presentation.FileLocation{{Path: "a.txt"}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})
	t.Run("F24 overwrite gives a contextual hunk", func(t *testing.T) {
		args := map[string]any{"file_path": "a.txt", "content": strings.Replace(lines, "d\n", "D\n", 1)}
		res := e.ok("write", args)
		want := presentation.DiffResultView{Title: "Write a.txt", Diffs: []presentation.FileDiff{
			{Path: "a.txt", OldText: ptr("a\nb\nc\nd\ne\nf\ng\n"), NewText: "a\nb\nc\nD\ne\nf\ng\n", Line: 4},
		}, Locations: []presentation.FileLocation{{Path: "a.txt", Line: 4}}}
		if got := e.presentResult("write", args, res); !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})
	t.Run("F25 create falls back to the whole file", func(t *testing.T) {
		args := map[string]any{"file_path": "new.txt", "content": "fresh\n"}
		res := e.ok("write", args)
		if res.Meta != `{"diffs":[]}` {
			t.Errorf("meta %s", res.Meta)
		}
		want := presentation.DiffResultView{Title: "Write new.txt", Diffs: []presentation.FileDiff{{Path: "new.txt", NewText: "fresh\n"}}}
		if got := e.presentResult("write", args, res); !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})
	t.Run("F26 identical overwrite falls back to the whole file", func(t *testing.T) {
		e.put("same.txt", "same\n")
		args := map[string]any{"file_path": "same.txt", "content": "same\n"}
		res := e.ok("write", args)
		want := presentation.DiffResultView{Title: "Write same.txt", Diffs: []presentation.FileDiff{{Path: "same.txt", NewText: "same\n"}}}
		if got := e.presentResult("write", args, res); !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})
	t.Run("F27 error gives no card", func(t *testing.T) {
		args := map[string]any{"file_path": "a.txt", "content": "x"}
		a := arguments(t, args)
		if got := bind(e.tools["write"], a).PresentResult(presentation.ToolResult{IsError: true, Content: []presentation.ContentBlock{presentation.Text("Error: boom")}}); got != nil {
			t.Errorf("got %#v", got)
		}
	})
	t.Run("F29 malformed meta falls back to the whole file", func(t *testing.T) {
		args := map[string]any{"file_path": "a.txt", "content": "x\n"}
		a := arguments(t, args)
		want := presentation.DiffResultView{Title: "Write a.txt", Diffs: []presentation.FileDiff{{Path: "a.txt", NewText: "x\n"}}}
		for _, meta := range []string{"", `{"diffs":"no"}`, `{"diffs":[{"path":1}]}`, `[]`} {
			got := bind(e.tools["write"], a).PresentResult(presentation.ToolResult{Content: []presentation.ContentBlock{presentation.Text("ok")}, Meta: meta})
			if !reflect.DeepEqual(got, want) {
				t.Errorf("meta %q: got %#v", meta, got)
			}
		}
	})
}

// The meta of a write uses the path as the model wrote it, absolute or
// relative.
func TestWriteMetaPath(t *testing.T) {
	e := newEnv(t, fs.Options{})
	abs := e.put("a.txt", "x\n")
	res := e.ok("write", map[string]any{"file_path": abs, "content": "y\n"})
	quoted, _ := json.Marshal(abs)
	want := `{"diffs":[{"path":` + string(quoted) + `,"oldText":"x\n","newText":"y\n","line":1}]}`
	if res.Meta != want {
		t.Errorf("meta %s\nwant %s", res.Meta, want)
	}
	if !strings.Contains(text(res), "to a.txt") {
		t.Errorf("text %q names the file relative to the working directory", text(res))
	}
}

// A FileSystem whose writes fail leaves the file as it was, and the error
// reaches the model with a code.
func TestWriteFailureLeavesFile(t *testing.T) {
	e := newEnvFS(t, fs.Options{}, failingWrites{})
	e.put("a.txt", "keep\n")
	res := e.fail("write", map[string]any{"file_path": "a.txt", "content": "new\n"}, fs.CodeIO)
	if !strings.Contains(text(res), "cannot write a.txt: disk on fire") {
		t.Errorf("message %q", text(res))
	}
	e.fail("edit", map[string]any{"file_path": "a.txt", "old_string": "keep", "new_string": "new"}, fs.CodeIO)
	if got := e.get("a.txt"); got != "keep\n" {
		t.Errorf("file holds %q", got)
	}
	noTempFiles(t, e.dir)
}

// failingWrites is the local disk with writes that always fail.
type failingWrites struct{ localFS }

func (failingWrites) WriteFile(context.Context, string, []byte) error {
	return errors.New("disk on fire")
}
