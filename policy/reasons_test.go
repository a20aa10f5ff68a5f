package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
)

// TestAskReasons: every kind of ask says why, in the words the user reads
// after the title of the call's card in the permission prompt (a clause
// about the call: the title names the tool and what it does).
func TestAskReasons(t *testing.T) {
	ws, base := attackWorkspace(t)
	root := ws.Cwd()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "loop"), filepath.Join(root, "loop")); err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	for name, effect := range map[string]registry.Effect{
		"read": registry.EffectRead, "write": registry.EffectWrite, "fetch": registry.EffectOther,
		"jobs": registry.EffectExecute, "mcp__s__t": registry.EffectExternal,
	} {
		define(t, reg, name, effect)
	}
	defineBash(t, reg)
	call := func(tool string, args map[string]any) *registry.Call {
		t.Helper()
		if tool == "bash" {
			return bashCall(t, args)
		}
		raw := `{}`
		if p, ok := args["path"].(string); ok {
			raw = `{"path":"` + p + `"}`
		}
		a, err := registry.MaterializeArguments(raw)
		if err != nil {
			t.Fatal(err)
		}
		return registry.NewCall(registry.CallSpec{ID: "c", Name: tool, Arguments: a})
	}
	tests := []struct {
		name      string
		preset    policy.Preset
		noSandbox bool
		tool      string
		args      map[string]any
		reason    string
	}{
		{"a file read outside", policy.WorkspaceWrite, false, "read", map[string]any{"path": "/etc/passwd"},
			"reads /etc/passwd, outside the workspace"},
		{"a file write outside", policy.WorkspaceWrite, false, "write", map[string]any{"path": "../x"},
			"writes " + base + "/x, outside the workspace"},
		{"a write through a link", policy.WorkspaceWrite, false, "write", map[string]any{"path": "shared/x"},
			"writes " + root + "/shared/x (a link to " + base + "/outside/dir/x), outside the workspace"},
		{"a path whose links loop", policy.WorkspaceWrite, false, "read", map[string]any{"path": "loop/x"},
			"reads " + root + "/loop/x (its symbolic links loop), outside the workspace"},
		{"a tool neither reading nor writing", policy.WorkspaceWrite, false, "fetch", map[string]any{"path": "/etc/x"},
			"touches /etc/x, outside the workspace"},
		{"a write into git's own directory", policy.WorkspaceWrite, false, "write", map[string]any{"path": ".git/config"},
			"writes " + root + "/.git/config, inside a .git directory or one laid out like a repository (git runs what its config names)"},
		{"a write under read-only", policy.ReadOnly, false, "write", map[string]any{"path": "a"},
			"changes files, and read-only asks before every change"},
		{"a command tool", policy.WorkspaceWrite, false, "jobs", nil,
			"runs a command, and workspace-write asks before every command"},
		{"an MCP tool", policy.WorkspaceWrite, false, "mcp__s__t", nil,
			"is a tool another program serves (an MCP server), and workspace-write asks before every call to one"},
		{"a program not known to be read-only", policy.WorkspaceWrite, false, "bash", map[string]any{"command": "curl -s example.com"},
			`"curl" is not read-only and no rule allows it`},
		{"a command writing outside", policy.WorkspaceWrite, false, "bash", map[string]any{"command": "echo x > ../x"},
			"writes ../x, outside the workspace"},
		{"a command reading outside", policy.WorkspaceWrite, false, "bash", map[string]any{"command": "cat ../secret"},
			"cat reads ../secret, outside the workspace"},
		{"a command writing without a sandbox", policy.WorkspaceWrite, true, "bash", map[string]any{"command": "echo x > a"},
			"writes a, and this mode asks before every write"},
		{"a command line that cannot be parsed", policy.WorkspaceWrite, false, "bash", map[string]any{"command": "echo 'unterminated"},
			"the command line cannot be parsed: parse bash command: 1:6: reached EOF without closing quote `'`"},
		{"a command run outside", policy.WorkspaceWrite, false, "bash", map[string]any{"command": "ls", "workdir": "/tmp"},
			"runs in /tmp, outside the workspace"},
		{"a command asking to leave the sandbox", policy.WorkspaceWrite, false, "bash", map[string]any{"command": "ls", "sandbox": false, "description": "to list the registry"},
			"asks to run outside the sandbox (sandbox: false), and workspace-write asks before every such command; the model says why: to list the registry"},
		{"a command asking to leave the sandbox, saying nothing", policy.ReadOnly, false, "bash", map[string]any{"command": "ls", "sandbox": false},
			"asks to run outside the sandbox (sandbox: false), and read-only asks before every such command; the model gives no reason"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := policy.New(reg, ws, tt.preset).WithSandbox(!tt.noSandbox).Decide(call(tt.tool, tt.args))
			if d.Kind != pipeline.DecisionAsk || d.Reason != tt.reason {
				t.Errorf("decision = %v %q\nwant ask %q", d.Kind, d.Reason, tt.reason)
			}
		})
	}
}

// bashArgs are the arguments of the bash tool the policy reads.
type bashArgs struct {
	Command     string `json:"command"`
	Workdir     string `json:"workdir,omitempty"`
	Description string `json:"description,omitempty"`
	Sandbox     *bool  `json:"sandbox,omitempty"`
}

// defineBash registers a bash tool that, like the real one, touches its
// working directory.
func defineBash(t *testing.T, reg *registry.Registry) {
	t.Helper()
	tool, err := registry.Define(registry.Spec[bashArgs, string]{
		Name:    "bash",
		Effect:  registry.EffectExecute,
		Handler: func(context.Context, *registry.Call, bashArgs) (string, error) { return "ok", nil },
		Paths:   func(a bashArgs) []string { return []string{a.Workdir} },
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Register(nil, tool); err != nil {
		t.Fatal(err)
	}
}
