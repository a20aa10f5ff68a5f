package search_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/tools/search"
)

func mustArgs(t *testing.T, raw string) registry.Arguments {
	t.Helper()
	a, err := registry.MaterializeArguments(raw)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// bind binds args to tool as the pipeline does; a failed binding stands
// for the call too.
func bind(tool *registry.Tool, args registry.Arguments) registry.Bound {
	b, _ := tool.Bind(args)
	return b
}

func TestPresentCall(t *testing.T) {
	f := newFixture(t, "", search.Options{NoRipgrep: true})
	cases := []struct {
		tool, args string
		want       presentation.CallView
	}{
		{"grep", `{"pattern":"a\"b"}`, presentation.GenericCallView{Title: `Grep a"b`, Kind: presentation.KindSearch}},
		{"grep", `{"pattern":"x","path":"src"}`, presentation.GenericCallView{Title: "Grep x in src", Kind: presentation.KindSearch}},
		{"grep", `{"pattern":"x","path":"src","include":"*.go"}`, presentation.GenericCallView{Title: "Grep x in src (*.go)", Kind: presentation.KindSearch}},
		{"grep", `{"pattern":"x","include":"*.{ts,tsx}"}`, presentation.GenericCallView{Title: "Grep x (*.{ts,tsx})", Kind: presentation.KindSearch}},
		{"glob", `{"pattern":"**/*.go"}`, presentation.GenericCallView{Title: "Glob **/*.go", Kind: presentation.KindSearch}},
		{"glob", `{"pattern":"*.md","path":"/abs/docs"}`, presentation.GenericCallView{Title: "Glob *.md in /abs/docs", Kind: presentation.KindSearch}},
		{"grep", `{"path":"x"}`, nil}, // invalid arguments: no card
	}
	for _, tc := range cases {
		got := bind(f.reg.Get(tc.tool, nil), mustArgs(t, tc.args)).PresentCall()
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s: got %#v, want %#v", tc.tool, tc.args, got, tc.want)
		}
	}
}

func TestPresentResult(t *testing.T) {
	f := newFixture(t, "", search.Options{NoRipgrep: true})
	writeTree(t, f.dir, map[string]string{"a.go": "x\n", "b/c.go": "y x\n"})
	ok := func(r pipeline.Result) presentation.ToolResult { return r.ToolResult() }
	grepArgs := `{"pattern":"x"}`
	grepRes := f.call(t, context.Background(), "grep", map[string]any{"pattern": "x"})
	globArgs := `{"pattern":"**/*.go"}`
	globRes := f.call(t, context.Background(), "glob", map[string]any{"pattern": "**/*.go"})
	errRes := presentation.ToolResult{IsError: true, Content: []presentation.ContentBlock{presentation.Text("Error: x")}, Meta: grepRes.Meta}
	cases := []struct {
		name, tool, args string
		result           presentation.ToolResult
		want             presentation.ResultView
	}{
		{"grep matches card", "grep", grepArgs, ok(grepRes), presentation.SearchMatchesView{
			Title: "Grep x", Total: 2, Files: []presentation.SearchFile{
				{Path: "a.go", Matches: []presentation.SearchMatch{{LineNumber: 1, Line: "x"}}},
				{Path: "b/c.go", Matches: []presentation.SearchMatch{{LineNumber: 1, Line: "y x"}}},
			}}},
		{"glob paths card", "glob", globArgs, ok(globRes), presentation.SearchPathsView{Title: "Glob **/*.go", Total: 2, Paths: globPaths(t, globRes)}},
		{"grep declines an error", "grep", grepArgs, errRes, nil},
		{"glob declines an error", "glob", globArgs, errRes, nil},
		{"grep declines missing meta", "grep", grepArgs, presentation.ToolResult{}, nil},
		{"grep declines a non-object", "grep", grepArgs, presentation.ToolResult{Meta: `[1]`}, nil},
		{"grep declines a missing total", "grep", grepArgs, presentation.ToolResult{Meta: `{"files":[],"truncated":false}`}, nil},
		{"grep declines a bad line number", "grep", grepArgs, presentation.ToolResult{Meta: `{"files":[{"path":"a","matches":[{"lineNumber":0,"line":"x"}]}],"truncated":false,"total":1}`}, nil},
		{"grep declines a file without path", "grep", grepArgs, presentation.ToolResult{Meta: `{"files":[{"matches":[]}],"truncated":false,"total":1}`}, nil},
		{"grep accepts an empty result", "grep", grepArgs, presentation.ToolResult{Meta: `{"files":[],"truncated":false,"total":0}`},
			presentation.SearchMatchesView{Title: "Grep x", Files: []presentation.SearchFile{}}},
		{"glob declines non-string paths", "glob", globArgs, presentation.ToolResult{Meta: `{"paths":[1],"truncated":false,"total":1}`}, nil},
		{"glob declines missing truncated", "glob", globArgs, presentation.ToolResult{Meta: `{"paths":[],"total":0}`}, nil},
		{"glob declines a negative total", "glob", globArgs, presentation.ToolResult{Meta: `{"paths":[],"truncated":false,"total":-1}`}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bind(f.reg.Get(tc.tool, nil), mustArgs(t, tc.args)).PresentResult(tc.result)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func globPaths(t *testing.T, r pipeline.Result) []string {
	var v globValue
	decode(t, r, &v)
	if len(v.Paths) != 2 {
		t.Fatalf("glob found %q", v.Paths)
	}
	return v.Paths
}

func TestToolClassification(t *testing.T) {
	f := newFixture(t, "", search.Options{})
	for _, name := range []string{"grep", "glob"} {
		tool := f.reg.Get(name, nil)
		if tool.Effect() != registry.EffectRead {
			t.Errorf("%s effect = %v", name, tool.Effect())
		}
		if !bind(tool, mustArgs(t, `{"pattern":"x"}`)).ConcurrencySafe() {
			t.Errorf("%s is not concurrency-safe", name)
		}
		if name == "glob" {
			continue // glob's Paths add the directory it walks: TestPathsAreWhatTheCallTouches
		}
		if paths, ok := tool.Paths(mustArgs(t, `{"pattern":"x"}`)); !ok || paths != nil {
			t.Errorf("%s paths without path = %q %v", name, paths, ok)
		}
		if paths, ok := tool.Paths(mustArgs(t, `{"pattern":"x","path":"../out"}`)); !ok || !reflect.DeepEqual(paths, []string{"../out"}) {
			t.Errorf("%s paths = %q %v", name, paths, ok)
		}
	}
}
