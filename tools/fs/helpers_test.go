package fs_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/fs"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// env is a session workspace in a temporary directory with the file tools
// registered and a pipeline to run them through.
type env struct {
	t     *testing.T
	dir   string
	ws    *workspace.Workspace
	tools map[string]*registry.Tool
	p     *pipeline.Pipeline
}

func newEnv(t *testing.T, opts fs.Options) *env {
	t.Helper()
	return newEnvFS(t, opts, workspace.Local{})
}

func newEnvFS(t *testing.T, opts fs.Options, files workspace.FileSystem) *env {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(dir, nil, files)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := fs.Tools(ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	e := &env{t: t, dir: dir, ws: ws, tools: map[string]*registry.Tool{}, p: pipeline.New(reg, pipeline.Options{})}
	for _, tool := range tools {
		if _, err := reg.Register(nil, tool); err != nil {
			t.Fatal(err)
		}
		e.tools[tool.Name()] = tool
	}
	return e
}

// exec runs the tool name with args (a JSON string, or a value to marshal)
// through the whole pipeline.
func (e *env) exec(name string, args any) pipeline.Result {
	e.t.Helper()
	raw, ok := args.(string)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			e.t.Fatal(err)
		}
		raw = string(b)
	}
	return e.p.Execute(context.Background(), pipeline.Input{CallID: "call_1", Name: name, Arguments: raw})
}

// ok runs the call and fails the test unless it succeeded.
func (e *env) ok(name string, args any) pipeline.Result {
	e.t.Helper()
	res := e.exec(name, args)
	if res.IsError {
		e.t.Fatalf("%s %v failed: %s", name, args, text(res))
	}
	return res
}

// fail runs the call and fails the test unless it failed with code.
func (e *env) fail(name string, args any, code string) pipeline.Result {
	e.t.Helper()
	res := e.exec(name, args)
	if !res.IsError {
		e.t.Fatalf("%s %v succeeded, want %s: %s", name, args, code, text(res))
	}
	if res.Code() != code {
		e.t.Fatalf("%s %v: code %q, want %q (%s)", name, args, res.Code(), code, text(res))
	}
	return res
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *env) put(name, content string) string {
	e.t.Helper()
	p := e.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *env) get(name string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.path(name))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

// presentResult runs the tool's result presenter on res.
func (e *env) presentResult(name string, args any, res pipeline.Result) presentation.ResultView {
	e.t.Helper()
	return bind(e.tools[name], arguments(e.t, args)).PresentResult(res.ToolResult())
}

// presentCall runs the tool's call presenter.
func (e *env) presentCall(name string, args any) presentation.CallView {
	e.t.Helper()
	return bind(e.tools[name], arguments(e.t, args)).PresentCall()
}

func arguments(t *testing.T, args any) registry.Arguments {
	t.Helper()
	a, err := registry.ArgumentsOf(args)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// text is the result's single text block.
func text(res pipeline.Result) string { return presentation.JoinText(res.Content) }

func ptr(s string) *string { return &s }

// noTempFiles fails the test when dir holds a write's leftover temporary
// file.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range entries {
		if n := de.Name(); len(n) > 0 && n[0] == '.' {
			t.Errorf("leftover file %s in %s", n, dir)
		}
	}
}

// localFS is the local disk, to embed in FileSystems that change one
// method.
type localFS = workspace.Local

// bind binds args to tool as the pipeline does; a failed binding stands
// for the call too.
func bind(tool *registry.Tool, args registry.Arguments) registry.Bound {
	b, _ := tool.Bind(args)
	return b
}
