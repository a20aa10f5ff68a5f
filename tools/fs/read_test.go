package fs_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

func envelope(path, body string) string {
	return "<path>" + path + "</path>\n<type>file</type>\n<content>\n" + body + "\n</content>"
}

func TestReadWindow(t *testing.T) {
	tests := []struct {
		name    string
		content string
		args    map[string]any
		opts    fs.Options
		want    string // the whole model-facing text
	}{
		{"whole file", "a\nb\n", nil, fs.Options{},
			envelope("f.txt", "     1\ta\n     2\tb")},
		{"no final newline", "a\nb", nil, fs.Options{},
			envelope("f.txt", "     1\ta\n     2\tb")},
		{"CRLF shown without CR", "a\r\nb\r\n", nil, fs.Options{},
			envelope("f.txt", "     1\ta\n     2\tb")},
		{"blank lines kept", "a\n\n\nb\n", nil, fs.Options{},
			envelope("f.txt", "     1\ta\n     2\t\n     3\t\n     4\tb")},
		{"offset", "a\nb\nc\n", map[string]any{"offset": 2}, fs.Options{},
			envelope("f.txt", "     2\tb\n     3\tc")},
		{"offset 0 is line 1", "a\nb\n", map[string]any{"offset": 0}, fs.Options{},
			envelope("f.txt", "     1\ta\n     2\tb")},
		{"limit leaves a note", "a\nb\nc\nd\n", map[string]any{"limit": 2}, fs.Options{},
			envelope("f.txt", "     1\ta\n     2\tb\n\n(Showing lines 1-2 of 4. To see more, read with offset 3.)")},
		{"offset and limit", "a\nb\nc\nd\n", map[string]any{"offset": 2, "limit": 2}, fs.Options{},
			envelope("f.txt", "     2\tb\n     3\tc\n\n(Showing lines 2-3 of 4. To see more, read with offset 4.)")},
		{"limit reaching the end has no note", "a\nb\n", map[string]any{"offset": 2, "limit": 5}, fs.Options{},
			envelope("f.txt", "     2\tb")},
		{"default limit", "a\nb\nc\n", nil, fs.Options{DefaultLimit: 1},
			envelope("f.txt", "     1\ta\n\n(Showing lines 1-1 of 3. To see more, read with offset 2.)")},
		{"long line cut at a character boundary", "ab€cd\nx\n", nil, fs.Options{MaxLineBytes: 4},
			envelope("f.txt", "     1\tab… [line cut: 7 bytes in all]\n     2\tx")},
		{"output cap ends the window early", "aaaa\nbbbb\ncccc\n", nil, fs.Options{MaxOutputBytes: 6},
			envelope("f.txt", "     1\taaaa\n     2\tbbbb\n\n(Showing lines 1-2 of 3. To see more, read with offset 3.)")},
		{"one huge line is still shown", "aaaaaaaaaa\nb\n", nil, fs.Options{MaxOutputBytes: 2},
			envelope("f.txt", "     1\taaaaaaaaaa\n\n(Showing lines 1-1 of 2. To see more, read with offset 2.)")},
		{"empty file", "", nil, fs.Options{},
			envelope("f.txt", "(the file is empty)")},
		{"wide numbers", strings.Repeat("x\n", 1000001), map[string]any{"offset": 1000001}, fs.Options{},
			envelope("f.txt", "1000001\tx")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.opts)
			e.put("f.txt", tt.content)
			args := map[string]any{"file_path": "f.txt"}
			for k, v := range tt.args {
				args[k] = v
			}
			if got := text(e.ok("read", args)); got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestReadRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(e *env)
		args  map[string]any
		opts  fs.Options
		code  string
		want  string // a fragment of the message
	}{
		{"missing file", nil, map[string]any{"file_path": "nope.txt"}, fs.Options{},
			fs.CodeNotFound, "nope.txt does not exist: check the path"},
		{"directory", func(e *env) { os.Mkdir(e.path("d"), 0o755) }, map[string]any{"file_path": "d"}, fs.Options{},
			fs.CodeIsDirectory, "d is a directory"},
		{"NUL byte", func(e *env) { e.put("b.bin", "abc\x00def") }, map[string]any{"file_path": "b.bin"}, fs.Options{},
			fs.CodeBinary, "b.bin is a binary file; read cannot show it"},
		{"not UTF-8", func(e *env) { e.put("l.txt", "caf\xe9\n") }, map[string]any{"file_path": "l.txt"}, fs.Options{},
			fs.CodeBinary, "l.txt is a binary file; read cannot show it"},
		{"NUL past the first 8 KiB is text", nil, nil, fs.Options{}, "", ""},
		{"over the size cap", func(e *env) { e.put("big.txt", strings.Repeat("x", 101)) }, map[string]any{"file_path": "big.txt"}, fs.Options{MaxFileBytes: 100},
			fs.CodeTooLarge, "big.txt is 101 bytes, over the 100 bytes read accepts: search it with grep"},
		{"offset past the end", func(e *env) { e.put("f.txt", "a\nb\n") }, map[string]any{"file_path": "f.txt", "offset": 3}, fs.Options{},
			fs.CodeOffsetPastEnd, "offset 3 is past the end of f.txt, which has 2 lines: use an offset from 1 to 2"},
		{"negative offset", func(e *env) { e.put("f.txt", "a\n") }, map[string]any{"file_path": "f.txt", "offset": -1}, fs.Options{},
			fs.CodeBadArgs, "offset must be 1 or more"},
		{"negative limit", func(e *env) { e.put("f.txt", "a\n") }, map[string]any{"file_path": "f.txt", "limit": -1}, fs.Options{},
			fs.CodeBadArgs, "limit must be 1 or more"},
		{"empty path", nil, map[string]any{"file_path": ""}, fs.Options{},
			fs.CodeBadArgs, "file_path must not be empty"},
		{"schema: missing file_path", nil, map[string]any{}, fs.Options{},
			fs.CodeBadArgs, `missing required property "file_path"`},
		{"schema: offset not an integer", nil, map[string]any{"file_path": "f", "offset": "2"}, fs.Options{},
			fs.CodeBadArgs, "offset"},
		{"parent is a file", func(e *env) { e.put("f.txt", "a\n") }, map[string]any{"file_path": "f.txt/x"}, fs.Options{},
			fs.CodeNotDirectory, "a parent in the path is a file"},
	}
	for _, tt := range tests {
		if tt.args == nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.opts)
			if tt.setup != nil {
				tt.setup(e)
			}
			res := e.fail("read", tt.args, tt.code)
			if got := text(res); !strings.Contains(got, tt.want) {
				t.Errorf("message %q lacks %q", got, tt.want)
			}
		})
	}
	t.Run("NUL past the first 8 KiB is text", func(t *testing.T) {
		e := newEnv(t, fs.Options{})
		e.put("f.txt", strings.Repeat("x", 8<<10)+"\x00\n")
		e.ok("read", map[string]any{"file_path": "f.txt"})
	})
}

func TestReadPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	e := newEnv(t, fs.Options{})
	p := e.put("secret.txt", "x\n")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	res := e.fail("read", map[string]any{"file_path": "secret.txt"}, fs.CodePermission)
	if !strings.Contains(text(res), "permission denied") {
		t.Errorf("message: %s", text(res))
	}
}

// F14, F15, F18, F20: the read call card's title window and location.
func TestReadPresentCall(t *testing.T) {
	tests := []struct {
		id    string
		args  map[string]any
		title string
		line  int
	}{
		{"F14", map[string]any{"file_path": "foo.txt", "offset": 5, "limit": 4}, "Read foo.txt (5 - 8)", 5},
		{"F15", map[string]any{"file_path": "src/a.ts"}, "Read src/a.ts", 1},
		{"F18", map[string]any{"file_path": "src/a.ts", "offset": 12}, "Read src/a.ts (from line 12)", 12},
		{"F20", map[string]any{"file_path": "a.go", "limit": 10}, "Read a.go (1 - 10)", 1},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			e := newEnv(t, fs.Options{})
			got := e.presentCall("read", tt.args)
			want := presentation.GenericCallView{
				Title:     tt.title,
				Kind:      presentation.KindRead,
				Locations: []presentation.FileLocation{{Path: tt.args["file_path"].(string), Line: tt.line}},
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v\nwant %#v", got, want)
			}
		})
	}
}

// F16, F17: the read result card comes from meta and the envelope body.
func TestReadPresentResult(t *testing.T) {
	e := newEnv(t, fs.Options{})
	e.put("src/a.ts", "let a = 1\nlet b = 2\nlet c = 3\n")
	args := map[string]any{"file_path": "src/a.ts", "offset": 2, "limit": 1}
	res := e.ok("read", args)

	t.Run("F16 read card", func(t *testing.T) {
		got := e.presentResult("read", args, res)
		want := presentation.ReadResultView{
			Title:      "Read src/a.ts (2 - 2)",
			Path:       "src/a.ts",
			Offset:     2,
			Lines:      []presentation.ReadFileLine{{Number: 2, Text: "let b = 2"}},
			TotalLines: 3,
			Lang:       "ts",
			Content:    "     2\tlet b = 2\n\n(Showing lines 2-2 of 3. To see more, read with offset 3.)",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %#v\nwant %#v", got, want)
		}
	})

	declines := []struct {
		name   string
		result presentation.ToolResult
	}{
		{"F17 error", presentation.ToolResult{IsError: true, Content: res.Content, Meta: res.Meta}},
		{"F17 two blocks", presentation.ToolResult{Content: append(res.Content, presentation.Text("x")), Meta: res.Meta}},
		{"F17 no content", presentation.ToolResult{Meta: res.Meta}},
		{"F17 image block", presentation.ToolResult{Content: []presentation.ContentBlock{presentation.ImageBlock{MimeType: "image/png", Data: "AA=="}}, Meta: res.Meta}},
		{"not the envelope", presentation.ToolResult{Content: []presentation.ContentBlock{presentation.Text("hello")}, Meta: res.Meta}},
		{"meta missing", presentation.ToolResult{Content: res.Content}},
		{"meta not an object", presentation.ToolResult{Content: res.Content, Meta: `[1]`}},
		{"meta without lines", presentation.ToolResult{Content: res.Content, Meta: `{"path":"a","offset":1,"totalLines":1}`}},
		{"meta line without text", presentation.ToolResult{Content: res.Content, Meta: `{"path":"a","offset":1,"lines":[{"number":1}],"totalLines":1}`}},
		{"meta path not a string", presentation.ToolResult{Content: res.Content, Meta: `{"path":1,"offset":1,"lines":[],"totalLines":1}`}},
	}
	for _, tt := range declines {
		t.Run(tt.name, func(t *testing.T) {
			a := arguments(t, args)
			if got := bind(e.tools["read"], a).PresentResult(tt.result); got != nil {
				t.Errorf("got %#v, want nil", got)
			}
		})
	}
}

func TestReadMetaLang(t *testing.T) {
	for file, lang := range map[string]string{"a.go": "go", "b.py": "py", "Makefile": "make", "c.yml": "yaml", "d.unknown": "", "e": ""} {
		e := newEnv(t, fs.Options{})
		e.put(file, "x\n")
		args := map[string]any{"file_path": file}
		v, ok := e.presentResult("read", args, e.ok("read", args)).(presentation.ReadResultView)
		if !ok || v.Lang != lang {
			t.Errorf("%s: lang %q, want %q", file, v.Lang, lang)
		}
	}
}
