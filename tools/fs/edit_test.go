package fs_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/diffcard"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

func TestEdit(t *testing.T) {
	tests := []struct {
		name     string
		before   string
		old, new string
		all      bool
		after    string // on disk
		text     string // model-facing
	}{
		{"single replacement", "a\nOLD\nb\n", "OLD", "NEW", false, "a\nNEW\nb\n", "Edited f.txt: replaced 1 occurrence."},
		{"replace_all", "x y x y x\n", "x", "z", true, "z y z y z\n", "Edited f.txt: replaced 3 occurrences."},
		{"replace_all with one occurrence", "x y\n", "x", "z", true, "z y\n", "Edited f.txt: replaced 1 occurrence."},
		{"multi-line", "a\nb\nc\n", "a\nb\n", "A\nB\nB2\n", false, "A\nB\nB2\nc\n", "Edited f.txt: replaced 1 occurrence."},
		{"delete text", "a\nb\nc\n", "b\n", "", false, "a\nc\n", "Edited f.txt: replaced 1 occurrence."},
		{"empty old_string fills an empty file", "", "", "hello\n", false, "hello\n", "Edited f.txt: replaced 1 occurrence."},

		{"CRLF file, LF strings", "a\r\nb\r\nc\r\n", "a\nb\n", "A\nB\nB2\n", false, "A\r\nB\r\nB2\r\nc\r\n", "Edited f.txt: replaced 1 occurrence."},
		{"CRLF file, CRLF strings", "a\r\nb\r\nc\r\n", "b\r\nc", "x\r\ny", false, "a\r\nx\r\ny\r\n", "Edited f.txt: replaced 1 occurrence."},
		{"CRLF file, single line", "a\r\nb\r\n", "b", "B", false, "a\r\nB\r\n", "Edited f.txt: replaced 1 occurrence."},
		{"CRLF file without final newline", "a\r\nb", "b", "B\nC", false, "a\r\nB\r\nC", "Edited f.txt: replaced 1 occurrence."},
		{"LF file, CRLF strings stay LF", "a\nb\nc\n", "a\r\nb", "x\r\ny", false, "x\ny\nc\n", "Edited f.txt: replaced 1 occurrence."},
		{"mixed file, byte-exact", "a\r\nb\nc\r\n", "a\r\nb\n", "x\n", false, "x\nc\r\n", "Edited f.txt: replaced 1 occurrence."},
		{"mixed file, within a line", "a\r\nb\nc\r\n", "c", "C", false, "a\r\nb\nC\r\n", "Edited f.txt: replaced 1 occurrence."},

		{"missing final newline stays missing (new adds one)", "a\nb", "b", "b\nc\n", false, "a\nb\nc",
			"Edited f.txt: replaced 1 occurrence. The file's final line break was kept as it was: edit never adds or removes it (use write for that)."},
		{"missing final newline stays missing (delete last line)", "a\nb", "b", "", false, "a",
			"Edited f.txt: replaced 1 occurrence. The file's final line break was kept as it was: edit never adds or removes it (use write for that)."},
		{"final newline stays (old takes it)", "a\nb\n", "b\n", "c", false, "a\nc\n",
			"Edited f.txt: replaced 1 occurrence. The file's final line break was kept as it was: edit never adds or removes it (use write for that)."},
		{"final newline stays (delete from inside)", "a\nb\n", "\nb\n", "", false, "a\n",
			"Edited f.txt: replaced 1 occurrence. The file's final line break was kept as it was: edit never adds or removes it (use write for that)."},
		{"final CRLF stays in a CRLF file", "a\r\nb\r\n", "b\n", "c", false, "a\r\nc\r\n",
			"Edited f.txt: replaced 1 occurrence. The file's final line break was kept as it was: edit never adds or removes it (use write for that)."},
		{"final CRLF stays in a mixed file", "a\nb\r\n", "b\r\n", "c", false, "a\nc\r\n",
			"Edited f.txt: replaced 1 occurrence. The file's final line break was kept as it was: edit never adds or removes it (use write for that)."},
		{"no final newline, untouched end", "a\nb", "a", "A", false, "A\nb", "Edited f.txt: replaced 1 occurrence."},
		{"emptying the file is allowed", "a\n", "a\n", "", false, "", "Edited f.txt: replaced 1 occurrence."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, fs.Options{})
			e.put("f.txt", tt.before)
			res := e.ok("edit", map[string]any{"file_path": "f.txt", "old_string": tt.old, "new_string": tt.new, "replace_all": tt.all})
			if got := e.get("f.txt"); got != tt.after {
				t.Errorf("file holds %q, want %q", got, tt.after)
			}
			if got := text(res); got != tt.text {
				t.Errorf("text %q\nwant %q", got, tt.text)
			}
			checkEditValue(t, tt.before, tt.after, res)
			noTempFiles(t, e.dir)
		})
	}
}

// checkEditValue checks that the value's hunks, built from the edit's
// sites, are those of diffing the whole file as it was and as it is now,
// line breaks included, and that the meta carries them.
func checkEditValue(t *testing.T, before, after string, res pipeline.Result) {
	t.Helper()
	var v fs.EditResult
	if err := json.Unmarshal([]byte(res.Value), &v); err != nil {
		t.Fatal(err)
	}
	want := diffcard.Hunks("f.txt", before, after)
	got := make([]presentation.FileDiff, len(v.Diffs))
	for i, h := range v.Diffs {
		got[i] = presentation.FileDiff{Path: h.Path, OldText: h.OldText, NewText: h.NewText, Line: h.Line}
	}
	if diffcard.Meta(got) != diffcard.Meta(want) {
		t.Errorf("value diffs %s\nwant %s", diffcard.Meta(got), diffcard.Meta(want))
	}
	if res.Meta != diffcard.Meta(want) {
		t.Errorf("meta %s\nwant %s", res.Meta, diffcard.Meta(want))
	}
}

func TestEditCreates(t *testing.T) {
	e := newEnv(t, fs.Options{})
	args := map[string]any{"file_path": "new/dir/n.txt", "old_string": "", "new_string": "one\r\ntwo\r\n"}
	res := e.ok("edit", args)
	if got := e.get("new/dir/n.txt"); got != "one\r\ntwo\r\n" {
		t.Errorf("file holds %q", got)
	}
	if got := text(res); got != "Created "+filepath.FromSlash("new/dir/n.txt")+" (2 lines)." {
		t.Errorf("text %q", got)
	}
	want := presentation.DiffResultView{
		Title:     "Edit new/dir/n.txt",
		Diffs:     []presentation.FileDiff{{Path: "new/dir/n.txt", NewText: "one\r\ntwo\r\n", Line: 1}},
		Locations: []presentation.FileLocation{{Path: "new/dir/n.txt", Line: 1}},
	}
	if got := e.presentResult("edit", args, res); !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}

func TestEditRefuses(t *testing.T) {
	tests := []struct {
		name     string
		before   *string // nil: no file
		old, new string
		all      bool
		code     string
		want     []string // fragments of the message
	}{
		{"not found", ptr("alpha\nbeta\n"), "gamma", "x", false, fs.CodeNoMatch,
			[]string{"old_string was not found in f.txt: read the file again and copy the exact text, including whitespace and indentation"}},
		{"not found: line numbers copied", ptr("alpha\nbeta\n"), "     1\talpha\n     2\tbeta", "x", false, fs.CodeNoMatch,
			[]string{"line-number prefixes read shows", "leave them out"}},
		{"not found: trailing whitespace", ptr("alpha  \nbeta\n"), "alpha\nbeta", "x", false, fs.CodeNoMatch,
			[]string{"matches only when spaces and tabs at the ends of lines are ignored"}},
		{"not found: indentation", ptr("\tif x {\n\t\ty()\n"), "    if x {\n        y()", "x", false, fs.CodeNoMatch,
			[]string{"matches only when whitespace is ignored", "tabs or spaces"}},
		{"not found: case", ptr("Alpha\n"), "alpha", "x", false, fs.CodeNoMatch,
			[]string{"letter case"}},
		{"not found: mixed line endings", ptr("a\r\nb\nc\n"), "a\nb", "x", false, fs.CodeNoMatch,
			[]string{"mixes CRLF and LF line endings", "byte for byte"}},
		{"not found in an empty file", ptr(""), "a", "b", false, fs.CodeNoMatch,
			[]string{"f.txt, which is empty"}},
		{"not unique", ptr("x\ny\nx\nz\nx\n"), "x", "w", false, fs.CodeNotUnique,
			[]string{"old_string occurs 3 times in f.txt (on lines 1, 3, 5)", "add surrounding lines", "set replace_all to true"}},
		{"not unique, many", ptr(strings.Repeat("x\n", 12)), "x", "w", false, fs.CodeNotUnique,
			[]string{"occurs 12 times in f.txt (on lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …)"}},
		{"same strings", ptr("a\n"), "a", "a", false, fs.CodeNoChange,
			[]string{"old_string and new_string are the same"}},
		{"strings differ only in line endings", ptr("a\nb\n"), "a\nb", "a\r\nb", false, fs.CodeNoChange,
			[]string{"differ only in line endings", "(LF)"}},
		{"only the final newline would change", ptr("a\n"), "\n", "", false, fs.CodeNoChange,
			[]string{"only add or remove the final line break", "use write"}},
		{"empty old_string on a file with content", ptr("a\n"), "", "b", false, fs.CodeEmptyOldString,
			[]string{"old_string is empty, but f.txt has content", "use write to replace the whole file"}},
		{"missing file", nil, "a", "b", false, fs.CodeNotFound,
			[]string{"f.txt does not exist: to create it, use write"}},
		{"not UTF-8", ptr("caf\xe9\n"), "caf", "cof", false, fs.CodeBinary,
			[]string{"f.txt is not UTF-8 text", "could corrupt it"}},
		{"binary", ptr("a\x00b\n"), "a", "c", false, fs.CodeBinary,
			[]string{"f.txt is not UTF-8 text"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, fs.Options{})
			if tt.before != nil {
				e.put("f.txt", *tt.before)
			}
			res := e.fail("edit", map[string]any{"file_path": "f.txt", "old_string": tt.old, "new_string": tt.new, "replace_all": tt.all}, tt.code)
			for _, w := range tt.want {
				if !strings.Contains(text(res), w) {
					t.Errorf("message %q lacks %q", text(res), w)
				}
			}
			if tt.before != nil {
				if got := e.get("f.txt"); got != *tt.before {
					t.Errorf("file changed to %q", got)
				}
			} else if _, err := os.Stat(e.path("f.txt")); err == nil {
				t.Error("the file was created")
			}
			noTempFiles(t, e.dir)
		})
	}
}

func TestEditRefusesFiles(t *testing.T) {
	e := newEnv(t, fs.Options{MaxFileBytes: 10})
	os.Mkdir(e.path("d"), 0o755)
	os.Chmod(e.put("ro.txt", "a\n"), 0o444)
	e.put("big.txt", strings.Repeat("a", 11))
	e.put("file", "x")
	for _, tt := range []struct{ path, code, want string }{
		{"d", fs.CodeIsDirectory, "d is a directory, not a file"},
		{"ro.txt", fs.CodeReadOnly, "ro.txt is read-only (mode 0444): edit will not replace it"},
		{"big.txt", fs.CodeTooLarge, "big.txt is 11 bytes, over the 10 bytes edit accepts"},
		{"file/x.txt", fs.CodeNotDirectory, "a parent in the path is a file"},
	} {
		res := e.fail("edit", map[string]any{"file_path": tt.path, "old_string": "a", "new_string": "b"}, tt.code)
		if !strings.Contains(text(res), tt.want) {
			t.Errorf("%s: message %q lacks %q", tt.path, text(res), tt.want)
		}
	}
	if got := e.get("ro.txt"); got != "a\n" {
		t.Errorf("read-only file changed to %q", got)
	}
}

func TestEditPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	e := newEnv(t, fs.Options{})
	os.Chmod(e.put("secret.txt", "a\n"), 0o200)
	e.fail("edit", map[string]any{"file_path": "secret.txt", "old_string": "a", "new_string": "b"}, fs.CodePermission)
}

func TestEditKeepsMode(t *testing.T) {
	e := newEnv(t, fs.Options{})
	p := e.put("run.sh", "#!/bin/sh\necho hi\n")
	if err := os.Chmod(p, 0o755); err != nil {
		t.Fatal(err)
	}
	e.ok("edit", map[string]any{"file_path": "run.sh", "old_string": "hi", "new_string": "there"})
	info, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o755 {
		t.Errorf("mode %o, want 755", info.Mode().Perm())
	}
}

// F2-style: a scattered replace_all gives one diff per site, and sites
// close together share one.
func TestEditReplaceAllScattered(t *testing.T) {
	var lines []string
	for i := 1; i <= 40; i++ {
		lines = append(lines, "line")
	}
	lines[2], lines[15], lines[17], lines[35] = "TODO", "TODO", "TODO", "TODO"
	e := newEnv(t, fs.Options{})
	e.put("f.txt", strings.Join(lines, "\n")+"\n")
	args := map[string]any{"file_path": "f.txt", "old_string": "TODO", "new_string": "DONE", "replace_all": true}
	res := e.ok("edit", args)
	diffs, ok := diffcard.FromMeta(res.Meta)
	if !ok || len(diffs) != 3 {
		t.Fatalf("diffs %v (ok %v), want 3 (lines 3; 16 and 18; 36)", diffs, ok)
	}
	checkEditValue(t, strings.Join(lines, "\n")+"\n", e.get("f.txt"), res)
	if strings.Contains(e.get("f.txt"), "TODO") {
		t.Error("a TODO is left")
	}
}

// F21–F23, F27, F28: edit's cards.
func TestEditPresent(t *testing.T) {
	e := newEnv(t, fs.Options{})
	e.put("a.txt", "a\nb\nc\nOLD\nd\ne\nf\n")

	t.Run("call card", func(t *testing.T) {
		got := e.presentCall("edit", map[string]any{"file_path": "a.txt", "old_string": "OLD", "new_string": "NEW"})
		want := presentation.DiffCallView{
			Title:     "Edit a.txt",
			Diffs:     []presentation.FileDiff{{Path: "a.txt", OldText: ptr("OLD"), NewText: "NEW"}},
			Locations: []presentation.FileLocation{{Path: "a.txt"}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})
	t.Run("F21 empty old_string has no old text", func(t *testing.T) {
		got := e.presentCall("edit", map[string]any{"file_path": "n.txt", "old_string": "", "new_string": "hi"})
		if d := got.(presentation.DiffCallView).Diffs[0]; d.OldText != nil || d.NewText != "hi" {
			t.Errorf("got %#v", d)
		}
	})
	args := map[string]any{"file_path": "a.txt", "old_string": "OLD", "new_string": "NEW"}
	res := e.ok("edit", args)
	t.Run("F22 meta", func(t *testing.T) {
		want := `{"diffs":[{"path":"a.txt","oldText":"a\nb\nc\nOLD\nd\ne\nf\n","newText":"a\nb\nc\nNEW\nd\ne\nf\n","line":4}]}`
		if res.Meta != want {
			t.Errorf("meta %s\nwant %s", res.Meta, want)
		}
	})
	t.Run("F23 result card", func(t *testing.T) {
		want := presentation.DiffResultView{Title: "Edit a.txt", Diffs: []presentation.FileDiff{
			{Path: "a.txt", OldText: ptr("a\nb\nc\nOLD\nd\ne\nf\n"), NewText: "a\nb\nc\nNEW\nd\ne\nf\n", Line: 4},
		}, Locations: []presentation.FileLocation{{Path: "a.txt", Line: 4}}}
		if got := e.presentResult("edit", args, res); !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})
	a := arguments(t, args)
	t.Run("F27 error gives no card", func(t *testing.T) {
		if got := bind(e.tools["edit"], a).PresentResult(presentation.ToolResult{IsError: true, Meta: res.Meta}); got != nil {
			t.Errorf("got %#v", got)
		}
	})
	t.Run("F28 malformed meta gives no card", func(t *testing.T) {
		for _, meta := range []string{"", `{}`, `{"diffs":[]}`, `{"diffs":[{"path":"a.txt","newText":"x"}]}`, `"x"`} {
			if got := bind(e.tools["edit"], a).PresentResult(presentation.ToolResult{Content: res.Content, Meta: meta}); got != nil {
				t.Errorf("meta %q: got %#v", meta, got)
			}
		}
	})
}

// A CRLF file's hunks show its lines as it has them, CRLF included, and
// the file keeps CRLF (issue 17).
func TestEditCRLFCards(t *testing.T) {
	e := newEnv(t, fs.Options{})
	e.put("w.txt", "one\r\ntwo\r\nthree\r\n")
	res := e.ok("edit", map[string]any{"file_path": "w.txt", "old_string": "two", "new_string": "2"})
	want := `{"diffs":[{"path":"w.txt","oldText":"one\r\ntwo\r\nthree\r\n","newText":"one\r\n2\r\nthree\r\n","line":2}]}`
	if res.Meta != want {
		t.Errorf("meta %s\nwant %s", res.Meta, want)
	}
	if got := e.get("w.txt"); got != "one\r\n2\r\nthree\r\n" {
		t.Errorf("file holds %q", got)
	}
}
