package search_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// backend is one way grep searches a directory.
type backend struct {
	name string
	opts search.Options
}

// backends returns the built-in search and, when rg is on PATH, ripgrep.
func backends(t testing.TB) []backend {
	out := []backend{{name: "builtin", opts: search.Options{NoRipgrep: true}}}
	if rg, err := exec.LookPath("rg"); err == nil {
		out = append(out, backend{name: "ripgrep", opts: search.Options{Ripgrep: rg}})
	} else {
		t.Log("rg is not on PATH: only the built-in search is tested")
	}
	return out
}

// fixture is a workspace in a temporary directory with the search tools
// registered in a pipeline.
type fixture struct {
	dir string
	ws  *workspace.Workspace
	reg *registry.Registry
	p   *pipeline.Pipeline
}

// newFixture builds a fixture whose working directory is dir (a fresh
// temporary directory when "").
func newFixture(t testing.TB, dir string, opts search.Options) *fixture {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	ws, err := workspace.New(dir, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := search.Tools(ws, opts)
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	for _, tool := range tools {
		if _, err := reg.Register(nil, tool); err != nil {
			t.Fatal(err)
		}
	}
	return &fixture{dir: dir, ws: ws, reg: reg, p: pipeline.New(reg, pipeline.Options{})}
}

// call runs one tool call through the pipeline.
func (f *fixture) call(t testing.TB, ctx context.Context, name string, args any) pipeline.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return f.p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: name, Arguments: string(raw)})
}

// grepValue is grep's value as the tests read it.
type grepValue struct {
	Files []struct {
		Path    string `json:"path"`
		Matches []struct {
			LineNumber int    `json:"lineNumber"`
			Line       string `json:"line"`
		} `json:"matches"`
	} `json:"files"`
	Total     int  `json:"total"`
	FileCount int  `json:"fileCount"`
	Truncated bool `json:"truncated"`
}

// lines flattens the value to "path:line:text" strings.
func (v grepValue) lines() []string {
	var out []string
	for _, f := range v.Files {
		for _, m := range f.Matches {
			out = append(out, f.Path+":"+itoa(m.LineNumber)+":"+m.Line)
		}
	}
	return out
}

// globValue is glob's value as the tests read it.
type globValue struct {
	Paths     []string `json:"paths"`
	Total     int      `json:"total"`
	Truncated bool     `json:"truncated"`
}

// decode reads a successful result's value into dst.
func decode(t testing.TB, r pipeline.Result, dst any) {
	t.Helper()
	if r.IsError {
		t.Fatalf("call failed: %s", presentation.JoinText(r.Content))
	}
	if err := json.Unmarshal([]byte(r.Value), dst); err != nil {
		t.Fatalf("decode %s: %v", r.Value, err)
	}
}

// writeTree creates files below root: a path ending in "/" is a
// directory; other values are file contents.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if name[len(name)-1] == '/' {
			if err := os.MkdirAll(path, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
