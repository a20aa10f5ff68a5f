package fs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/internal/linktest"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/fs"
)

func TestToolsNeedAWorkspace(t *testing.T) {
	if _, err := fs.Tools(nil, fs.Options{}); err == nil {
		t.Error("no error without a workspace")
	}
}

// F13: read is parallel-safe; write and edit are exclusive. Effects say
// what each does.
func TestToolsClassification(t *testing.T) {
	e := newEnv(t, fs.Options{})
	tests := []struct {
		name   string
		args   string
		mode   pipeline.ExecutionMode
		effect registry.Effect
	}{
		{"read", `{"file_path":"a.txt"}`, pipeline.Parallel, registry.EffectRead},
		{"write", `{"file_path":"a.txt","content":"x"}`, pipeline.Exclusive, registry.EffectWrite},
		{"edit", `{"file_path":"a.txt","old_string":"x","new_string":"y"}`, pipeline.Exclusive, registry.EffectWrite},
	}
	for _, tt := range tests {
		t.Run("F13 "+tt.name, func(t *testing.T) {
			if got := e.p.ExecutionMode(pipeline.Input{CallID: "c", Name: tt.name, Arguments: tt.args}); got != tt.mode {
				t.Errorf("mode %v, want %v", got, tt.mode)
			}
			if got := e.tools[tt.name].Effect(); got != tt.effect {
				t.Errorf("effect %v, want %v", got, tt.effect)
			}
			if e.tools[tt.name].Timeout() != fs.DefaultTimeout {
				t.Errorf("timeout %v", e.tools[tt.name].Timeout())
			}
		})
	}
	var names []string
	for _, s := range e.p.Registry().Schemas(nil) {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	if want := []string{"edit", "read", "write"}; !reflect.DeepEqual(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
}

// A symlink inside the workspace that points outside it: the tools follow
// it (policy is not their job), and Paths reports the path the model
// wrote, so a policy can see where it really leads.
func TestSymlinkOutOfWorkspace(t *testing.T) {
	e := newEnv(t, fs.Options{})
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(target, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	linktest.Symlink(t, target, e.path("link.txt"))
	calls := map[string]string{
		"read":  `{"file_path":"link.txt"}`,
		"write": `{"file_path":"link.txt","content":"changed\n"}`,
		"edit":  `{"file_path":"link.txt","old_string":"changed","new_string":"edited"}`,
	}
	for _, name := range []string{"read", "write", "edit"} {
		paths, ok := e.tools[name].Paths(arguments(t, jsonArgs(t, calls[name])))
		if !ok || !reflect.DeepEqual(paths, []string{"link.txt"}) {
			t.Errorf("%s: Paths %v (ok %v), want [link.txt]", name, paths, ok)
		}
		if e.ws.Contains(paths[0]) {
			t.Errorf("%s: the workspace claims %s", name, paths[0])
		}
		e.ok(name, calls[name])
	}
	if b, _ := os.ReadFile(target); string(b) != "edited\n" {
		t.Errorf("target holds %q", b)
	}
	if fi, err := os.Lstat(e.path("link.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
}

// jsonArgs turns JSON text into a value ArgumentsOf takes.
func jsonArgs(t *testing.T, s string) any {
	t.Helper()
	a, err := registry.MaterializeArguments(s)
	if err != nil {
		t.Fatal(err)
	}
	return a.Value()
}

// Paths is the path as written, absolute or relative.
func TestPathsAsWritten(t *testing.T) {
	e := newEnv(t, fs.Options{})
	for _, p := range []string{"a.txt", "../x.txt", "/etc/passwd", "./sub/../b.txt"} {
		paths, ok := e.tools["read"].Paths(arguments(t, map[string]any{"file_path": p}))
		if !ok || !reflect.DeepEqual(paths, []string{p}) {
			t.Errorf("Paths %v, want [%s]", paths, p)
		}
	}
}

// Absolute paths and paths outside the working directory work; messages
// name them absolutely.
func TestAbsolutePaths(t *testing.T) {
	e := newEnv(t, fs.Options{})
	outside := filepath.Join(t.TempDir(), "o.txt")
	res := e.ok("write", map[string]any{"file_path": outside, "content": "x\n"})
	if got := text(res); got != "Created "+outside+" (1 line)." {
		t.Errorf("text %q", got)
	}
	res = e.ok("read", map[string]any{"file_path": outside})
	if !strings.HasPrefix(text(res), "<path>"+outside+"</path>") {
		t.Errorf("text %q", text(res))
	}
}

// A cancelled caller stops the call: no file is written.
func TestCancelled(t *testing.T) {
	e := newEnv(t, fs.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := e.p.Execute(ctx, pipeline.Input{CallID: "c", Name: "write", Arguments: `{"file_path":"a.txt","content":"x"}`})
	if !res.IsError || !strings.HasPrefix(res.Code(), "ABORTED") {
		t.Errorf("result %+v", res)
	}
	if _, err := os.Stat(e.path("a.txt")); err == nil {
		t.Error("the file was written")
	}
}

// A round trip through the pipeline: write, read, edit, read.
func TestRoundTrip(t *testing.T) {
	e := newEnv(t, fs.Options{})
	e.ok("write", `{"file_path":"src/main.go","content":"package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"}`)
	e.ok("edit", `{"file_path":"src/main.go","old_string":"println(\"hi\")","new_string":"println(\"hello\")"}`)
	got := text(e.ok("read", `{"file_path":"src/main.go","offset":3,"limit":2}`))
	want := envelope(filepath.FromSlash("src/main.go"), "     3\tfunc main() {\n     4\t\tprintln(\"hello\")\n\n(Showing lines 3-4 of 5. To see more, read with offset 5.)")
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	noTempFiles(t, e.path("src"))
}

// A file over the default 10 MiB cap is refused by read and edit before
// it is read (the sparse file costs no disk).
func TestHugeFile(t *testing.T) {
	e := newEnv(t, fs.Options{})
	p := e.put("huge.log", "")
	if err := os.Truncate(p, fs.DefaultMaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	res := e.fail("read", map[string]any{"file_path": "huge.log"}, fs.CodeTooLarge)
	if want := "huge.log is 10.0 MiB, over the 10.0 MiB read accepts"; !strings.Contains(text(res), want) {
		t.Errorf("message %q lacks %q", text(res), want)
	}
	e.fail("edit", map[string]any{"file_path": "huge.log", "old_string": "a", "new_string": "b"}, fs.CodeTooLarge)
	// write replaces it, without a diff of the old content.
	args := map[string]any{"file_path": "huge.log", "content": "small\n"}
	res = e.ok("write", args)
	if res.Meta != `{"diffs":[]}` {
		t.Errorf("meta %s", res.Meta)
	}
}

// The model-facing names and arguments are the fixed outside contract of
// DESIGN.md.
func TestSchemas(t *testing.T) {
	e := newEnv(t, fs.Options{DefaultLimit: 500})
	want := map[string]struct{ props, required []string }{
		"read":  {[]string{"file_path", "limit", "offset"}, []string{"file_path"}},
		"write": {[]string{"content", "file_path"}, []string{"file_path", "content"}},
		"edit":  {[]string{"file_path", "new_string", "old_string", "replace_all"}, []string{"file_path", "old_string", "new_string"}},
	}
	for name, w := range want {
		var s struct {
			Properties map[string]struct {
				Type        string `json:"type"`
				Description string `json:"description"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		if err := json.Unmarshal([]byte(e.tools[name].Parameters()), &s); err != nil {
			t.Fatal(err)
		}
		var props []string
		for p, v := range s.Properties {
			props = append(props, p)
			if v.Description == "" {
				t.Errorf("%s.%s has no description", name, p)
			}
		}
		slices.Sort(props)
		if !reflect.DeepEqual(props, w.props) || !reflect.DeepEqual(s.Required, w.required) {
			t.Errorf("%s: properties %v required %v, want %v %v", name, props, s.Required, w.props, w.required)
		}
		if name == "read" && !strings.Contains(s.Properties["limit"].Description, "default 500") {
			t.Errorf("read.limit: %q", s.Properties["limit"].Description)
		}
	}
}
