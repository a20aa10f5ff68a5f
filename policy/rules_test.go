package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Remembered rules of file tools: an allow rule answers what the preset
// would ask, a reject rule beats every allow and every preset, and a
// rule covers only its tool and its paths.
func TestFileRules(t *testing.T) {
	base := t.TempDir()
	project, other := filepath.Join(base, "project"), filepath.Join(base, "other")
	for _, d := range []string{project, filepath.Join(other, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(project, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	define(t, reg, "read", registry.EffectRead)
	define(t, reg, "write", registry.EffectWrite)
	call := func(tool, path string) *registry.Call {
		args, err := registry.MaterializeArguments(`{"path":` + strings.ReplaceAll(`"`+path+`"`, `\`, `\\`) + `}`)
		if err != nil {
			t.Fatal(err)
		}
		return registry.NewCall(registry.CallSpec{ID: "c", Name: tool, Arguments: args})
	}
	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
		deny  = pipeline.DecisionDeny
	)
	tests := []struct {
		name   string
		rules  []policy.Rule
		preset policy.Preset
		tool   string
		path   string
		want   pipeline.DecisionKind
	}{
		{"no rule: outside asks", nil, policy.WorkspaceWrite, "read", filepath.Join(other, "a"), ask},
		{"a directory rule allows below it", []policy.Rule{{Allow: true, Tool: "read", Path: other}}, policy.WorkspaceWrite, "read", filepath.Join(other, "sub", "a"), allow},
		{"not beside it", []policy.Rule{{Allow: true, Tool: "read", Path: filepath.Join(other, "sub")}}, policy.WorkspaceWrite, "read", filepath.Join(other, "a"), ask},
		{"not for another tool", []policy.Rule{{Allow: true, Tool: "read", Path: other}}, policy.WorkspaceWrite, "write", filepath.Join(other, "a"), ask},
		{"a tool rule allows writes under read-only", []policy.Rule{{Allow: true, Tool: "write"}}, policy.ReadOnly, "write", "a.txt", allow},
		{"a tool rule stays in the workspace", []policy.Rule{{Allow: true, Tool: "write"}}, policy.ReadOnly, "write", filepath.Join(other, "a"), ask},
		{"reject beats allow", []policy.Rule{{Allow: true, Tool: "read", Path: other}, {Tool: "read", Path: filepath.Join(other, "sub")}}, policy.WorkspaceWrite, "read", filepath.Join(other, "sub", "a"), deny},
		{"reject beats full access", []policy.Rule{{Tool: "write"}}, policy.FullAccess, "write", "a.txt", deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			book := policy.OpenRuleBook(t.TempDir(), project)
			for _, r := range tt.rules {
				if err := book.Add(r); err != nil {
					t.Fatal(err)
				}
			}
			pol := policy.New(reg, ws, tt.preset).WithRules(book)
			if d := pol.Decide(call(tt.tool, tt.path)); d.Kind != tt.want {
				t.Errorf("decision = %+v, want %v", d, tt.want)
			}
		})
	}
}

// What "always" would remember for a call.
func TestSuggestFileRule(t *testing.T) {
	base := t.TempDir()
	project, other := filepath.Join(base, "project"), filepath.Join(base, "other")
	os.MkdirAll(project, 0o755)
	os.MkdirAll(other, 0o755)
	ws, _ := workspace.New(project, nil, workspace.Local{})
	reg := registry.New()
	define(t, reg, "read", registry.EffectRead)
	pol := policy.New(reg, ws, policy.WorkspaceWrite).WithRules(policy.OpenRuleBook(t.TempDir(), project))
	for _, tt := range []struct{ path, want string }{
		{"a.go", "read in this project"},
		{filepath.Join(other, "x.go"), "read under " + other},
		{other, "read under " + other},
	} {
		args, _ := registry.MaterializeArguments(`{"path":"` + tt.path + `"}`)
		c := registry.NewCall(registry.CallSpec{ID: "c", Name: "read", Arguments: args})
		rules, ok := pol.Suggest(c)
		if !ok || len(rules) != 1 || rules[0].Subject() != tt.want || !rules[0].Allow {
			t.Errorf("Suggest(%s) = %v %v, want allow %s", tt.path, rules, ok, tt.want)
		}
	}
}

// An MCP server's tool touches no path: "always" remembers the tool, and
// the rule answers its next calls.
func TestExternalToolRules(t *testing.T) {
	ws, _ := workspace.New(t.TempDir(), nil, workspace.Local{})
	reg := registry.New()
	define(t, reg, "mcp__docs__search", registry.EffectExternal)
	book := policy.OpenRuleBook(t.TempDir(), ws.Cwd())
	pol := policy.New(reg, ws, policy.WorkspaceWrite).WithRules(book)
	args, _ := registry.MaterializeArguments(`{}`)
	c := registry.NewCall(registry.CallSpec{ID: "c", Name: "mcp__docs__search", Arguments: args})
	if d := pol.Decide(c); d.Kind != pipeline.DecisionAsk || !strings.Contains(d.Reason, "MCP server") {
		t.Fatalf("first call: %+v, want ask", d)
	}
	rules, ok := pol.Suggest(c)
	if !ok || len(rules) != 1 || rules[0].Subject() != "mcp__docs__search in this project" {
		t.Fatalf("Suggest = %v %v", rules, ok)
	}
	if err := pol.Remember(rules[0]); err != nil {
		t.Fatal(err)
	}
	if d := pol.Decide(c); d.Kind != pipeline.DecisionAllow {
		t.Errorf("after always: %+v, want allow", d)
	}
	if err := pol.Remember(policy.Rule{Tool: "mcp__docs__search"}); err != nil { // always reject replaces it
		t.Fatal(err)
	}
	if d := pol.Decide(c); d.Kind != pipeline.DecisionDeny {
		t.Errorf("after always reject: %+v, want deny", d)
	}
}
