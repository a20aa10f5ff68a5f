package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

type pathArgs struct {
	Path string `json:"path,omitempty"`
}

func define(t *testing.T, reg *registry.Registry, name string, effect registry.Effect) {
	t.Helper()
	tool, err := registry.Define(registry.Spec[pathArgs, string]{
		Name:    name,
		Effect:  effect,
		Handler: func(context.Context, *registry.Call, pathArgs) (string, error) { return "ok", nil },
		Paths: func(a pathArgs) []string {
			if a.Path == "" {
				return nil
			}
			return []string{a.Path}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Register(nil, tool); err != nil {
		t.Fatal(err)
	}
}

func TestPresets(t *testing.T) {
	base := t.TempDir()
	project := filepath.Join(base, "project")
	os.MkdirAll(project, 0o755)
	os.Symlink(base, filepath.Join(project, "up"))
	ws, err := workspace.New(project, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	define(t, reg, "read", registry.EffectRead)
	define(t, reg, "write", registry.EffectWrite)
	define(t, reg, "bash", registry.EffectExecute)
	define(t, reg, "todo_write", registry.EffectOther)

	const (
		allow = pipeline.DecisionAllow
		ask   = pipeline.DecisionAsk
	)
	tests := []struct {
		preset policy.Preset
		tool   string
		args   string
		want   pipeline.DecisionKind
		reason string
	}{
		{policy.WorkspaceWrite, "read", `{"path":"src/a.go"}`, allow, ""},
		{policy.WorkspaceWrite, "write", `{"path":"src/a.go"}`, allow, ""},
		{policy.WorkspaceWrite, "write", `{"path":".git/config"}`, ask, "inside a .git directory"},
		{policy.WorkspaceWrite, "write", `{"path":"sub/.git/hooks/pre-commit"}`, ask, "inside a .git directory"},
		{policy.WorkspaceWrite, "write", `{"path":".github/workflows/ci.yml"}`, allow, ""},
		{policy.WorkspaceWrite, "bash", `{}`, ask, "runs a command, and workspace-write asks before every command"},
		{policy.WorkspaceWrite, "todo_write", `{}`, allow, ""},
		{policy.WorkspaceWrite, "read", `{"path":"/etc/passwd"}`, ask, "reads /etc/passwd, outside the workspace"},
		{policy.WorkspaceWrite, "write", `{"path":"../other/x"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "read", `{"path":"up/secret"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "bash", `{"path":"/tmp"}`, ask, "outside the workspace"},
		{policy.WorkspaceWrite, "read", `{"path":7}`, allow, ""},
		{policy.WorkspaceWrite, "nope", `{}`, allow, ""},
		{policy.ReadOnly, "read", `{"path":"a"}`, allow, ""},
		{policy.ReadOnly, "write", `{"path":"a"}`, ask, "changes files, and read-only asks"},
		{policy.ReadOnly, "bash", `{}`, ask, ""},
		{policy.FullAccess, "bash", `{}`, allow, ""},
		{policy.FullAccess, "write", `{"path":"/etc/hosts"}`, allow, ""},
	}
	for _, tt := range tests {
		t.Run(string(tt.preset)+" "+tt.tool+" "+tt.args, func(t *testing.T) {
			pol := policy.New(reg, ws, tt.preset)
			args, err := registry.MaterializeArguments(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			d := pol.Decide(registry.NewCall(registry.CallSpec{ID: "c", Name: tt.tool, Arguments: args}))
			if d.Kind != tt.want || !strings.Contains(d.Reason, tt.reason) {
				t.Errorf("decision = %+v, want kind %v with reason containing %q", d, tt.want, tt.reason)
			}
		})
	}
}

func TestPolicyAsMiddlewareAndPresetSwitch(t *testing.T) {
	ws, _ := workspace.New(t.TempDir(), nil, workspace.Local{})
	reg := registry.New()
	define(t, reg, "bash", registry.EffectExecute)
	pol := policy.New(reg, ws, policy.WorkspaceWrite)
	var asked []string
	p := pipeline.New(reg, pipeline.Options{Approver: pipeline.ApproverFunc(func(_ context.Context, req pipeline.ApprovalRequest) (pipeline.ApprovalOutcome, error) {
		asked = append(asked, req.Reason)
		return pipeline.ApprovalRejected, nil
	})})
	agent := reg.NewScope("agent", nil)
	p.UsePreExecute(agent, pol.PreExecute)
	run := func() pipeline.Result {
		return p.Execute(context.Background(), pipeline.Input{CallID: "c", Name: "bash", Arguments: `{}`, Scope: agent})
	}
	if r := run(); !r.IsError || len(asked) != 1 {
		t.Fatalf("workspace-write: result %+v, asked %v", r, asked)
	}
	pol.SetPreset(policy.FullAccess)
	if r := run(); r.IsError || len(asked) != 1 || pol.Preset() != policy.FullAccess {
		t.Fatalf("full-access: result %+v, asked %v", r, asked)
	}
}

func TestParsePreset(t *testing.T) {
	for _, p := range policy.Presets() {
		got, err := policy.ParsePreset(string(p))
		if err != nil || got != p || p.Description() == "" {
			t.Errorf("ParsePreset(%q) = %q, %v", p, got, err)
		}
	}
	if _, err := policy.ParsePreset("yolo"); err == nil {
		t.Errorf("ParsePreset(yolo) succeeded")
	}
}

// TestPreExecuteAtMost: a child's policy follows the parent's preset as
// it changes, but never grants more than its limit.
func TestPreExecuteAtMost(t *testing.T) {
	ws, _ := workspace.New(t.TempDir(), nil, workspace.Local{})
	reg := registry.New()
	define(t, reg, "write", registry.EffectWrite)
	pol := policy.New(reg, ws, policy.FullAccess)
	child := pol.PreExecuteAtMost(policy.ReadOnly)
	decide := func() pipeline.DecisionKind {
		args, _ := registry.MaterializeArguments(`{"path":"a"}`)
		call := registry.NewCall(registry.CallSpec{ID: "c", Name: "write", Arguments: args})
		d, err := child(context.Background(), call, func(context.Context) (pipeline.Decision, error) { return pipeline.Allow(), nil })
		if err != nil {
			t.Fatal(err)
		}
		return d.Kind
	}
	if got := decide(); got != pipeline.DecisionAsk {
		t.Errorf("full-access parent, read-only limit: %v, want ask", got)
	}
	wide := pol.PreExecuteAtMost(policy.FullAccess)
	pol.SetPreset(policy.ReadOnly)
	args, _ := registry.MaterializeArguments(`{"path":"a"}`)
	d, _ := wide(context.Background(), registry.NewCall(registry.CallSpec{ID: "c", Name: "write", Arguments: args}),
		func(context.Context) (pipeline.Decision, error) { return pipeline.Allow(), nil })
	if d.Kind != pipeline.DecisionAsk {
		t.Errorf("read-only parent, full-access limit: %v, want ask (the parent bounds the child)", d.Kind)
	}
}

func TestPresetAtMost(t *testing.T) {
	tests := []struct{ p, limit, want policy.Preset }{
		{policy.FullAccess, policy.ReadOnly, policy.ReadOnly},
		{policy.ReadOnly, policy.FullAccess, policy.ReadOnly},
		{policy.WorkspaceWrite, policy.WorkspaceWrite, policy.WorkspaceWrite},
		{policy.WorkspaceWrite, policy.FullAccess, policy.WorkspaceWrite},
		{policy.Plan, policy.FullAccess, policy.Plan},
		{policy.ReadOnly, policy.Plan, policy.Plan},
		{policy.Plan, policy.ReadOnly, policy.Plan},
		{"unknown", policy.Plan, "unknown"},
	}
	for _, tt := range tests {
		if got := tt.p.AtMost(tt.limit); got != tt.want {
			t.Errorf("%q.AtMost(%q) = %q, want %q", tt.p, tt.limit, got, tt.want)
		}
	}
}
