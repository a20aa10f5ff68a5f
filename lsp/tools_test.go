package lsp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/lsp"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
)

// toolFixture runs the Manager's tools through a pipeline.
type toolFixture struct {
	m *lsp.Manager
	p *pipeline.Pipeline
}

func newToolFixture(t testing.TB, m *lsp.Manager) *toolFixture {
	t.Helper()
	reg := registry.New()
	for _, tool := range m.Tools() {
		if _, err := reg.Register(nil, tool); err != nil {
			t.Fatal(err)
		}
	}
	return &toolFixture{m: m, p: pipeline.New(reg, pipeline.Options{})}
}

// call runs one tool call and returns its result.
func (f *toolFixture) call(t testing.TB, name string, args any) pipeline.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	return f.p.Execute(ctx, pipeline.Input{CallID: "call_1", Name: name, Arguments: string(raw)})
}

// text is a successful result's text.
func text(t testing.TB, r pipeline.Result) string {
	t.Helper()
	if r.IsError {
		t.Fatalf("call failed: %s", presentation.JoinText(r.Content))
	}
	return presentation.JoinText(r.Content)
}

// repoRoot is this repository's root.
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// lineOf returns the 1-based number of the first line of the file that
// starts with prefix, so the tests follow the code as it changes.
func lineOf(t testing.TB, path, prefix string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.HasPrefix(strings.TrimSpace(sc.Text()), prefix) {
			return n
		}
	}
	t.Fatalf("%s has no line starting with %q", path, prefix)
	return 0
}

func TestToolsOnThisRepository(t *testing.T) {
	root := repoRoot(t)
	f := newToolFixture(t, newManager(t, root, hangGuard))
	parse := fmt.Sprintf("jsonvalue/parse.go:%d:6:", lineOf(t, filepath.Join(root, "jsonvalue/parse.go"), "func Parse("))
	use := fmt.Sprintf("schema/schema.go:%d:", lineOf(t, filepath.Join(root, "schema/schema.go"), "v, err := jsonvalue.Parse("))

	tests := []struct {
		name, tool string
		args       any
		want       []string
	}{
		{"definition from a call site", lsp.DefinitionName,
			lsp.PositionArgs{FilePath: "schema/schema.go", Line: lineOf(t, filepath.Join(root, "schema/schema.go"), "v, err := jsonvalue.Parse("), Symbol: "Parse"},
			[]string{parse + " func Parse("}},
		{"references from the declaration", lsp.ReferencesName,
			lsp.PositionArgs{FilePath: filepath.Join(root, "jsonvalue/parse.go"), Line: lineOf(t, filepath.Join(root, "jsonvalue/parse.go"), "func Parse("), Symbol: "Parse"},
			[]string{parse, use}},
		{"workspace symbols", lsp.SymbolsName, lsp.SymbolsArgs{Query: "jsonvalue.Parse"},
			[]string{parse + " function jsonvalue.Parse in github.com/dsh-acp/dsh-acp/jsonvalue"}},
		{"diagnostics of a clean file", lsp.DiagnosticsName, lsp.DiagnosticsArgs{Path: "jsonvalue/parse.go"},
			[]string{"No errors or warnings."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := f.call(t, tt.tool, tt.args)
			got := text(t, r)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s answered\n%s\nwant a line with %q", tt.tool, got, w)
				}
			}
		})
	}
}

func TestToolsPresentFollowableLocations(t *testing.T) {
	root := repoRoot(t)
	f := newToolFixture(t, newManager(t, root, hangGuard))
	line := lineOf(t, filepath.Join(root, "schema/schema.go"), "v, err := jsonvalue.Parse(")
	args := lsp.PositionArgs{FilePath: "schema/schema.go", Line: line, Symbol: "Parse"}
	r := f.call(t, lsp.DefinitionName, args)
	text(t, r)

	var tool *registry.Tool
	for _, tl := range f.m.Tools() {
		if tl.Name() == lsp.DefinitionName {
			tool = tl
		}
	}
	a, err := registry.ArgumentsOf(args)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tool.Bind(a)
	if err != nil {
		t.Fatal(err)
	}
	call, ok := b.PresentCall().(presentation.GenericCallView)
	if !ok || len(call.Locations) != 1 || call.Locations[0] != (presentation.FileLocation{Path: "schema/schema.go", Line: line}) {
		t.Errorf("pending card = %#v, want the asked position as its location", b.PresentCall())
	}
	view, ok := b.PresentResult(presentation.ToolResult{Content: r.Content, Meta: r.Meta}).(presentation.SearchMatchesView)
	if !ok || len(view.Files) != 1 || view.Files[0].Path != "jsonvalue/parse.go" || len(view.Files[0].Matches) != 1 {
		t.Fatalf("result card = %#v, want jsonvalue/parse.go with one line", view)
	}
}
