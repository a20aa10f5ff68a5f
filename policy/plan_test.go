package policy_test

import (
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/pipeline"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// Plan mode runs what only reads, refuses (never asks about) what could
// change anything, and says how to go on: present the plan with
// exit_plan_mode. Remembered allow rules do not lift it; reject rules
// still deny.
func TestPlanModeCommands(t *testing.T) {
	allowGoTest := policy.Rule{Allow: true, Tool: "bash", Command: []string{"go", "test"}}
	allowRm := policy.Rule{Allow: true, Tool: "bash", Command: []string{"rm"}}
	rejectGit := policy.Rule{Tool: "bash", Command: []string{"git"}}
	const refused = "the session is in plan mode"
	checkDecisions(t, command.Bash, []decisionCase{
		{policy.Plan, nil, "git status && git diff", allow, ""},
		{policy.Plan, nil, "ls -la | wc -l", allow, ""},
		{policy.Plan, nil, "cat /etc/passwd", ask, "outside the workspace"},
		{policy.Plan, nil, "ls > listing.txt", deny, refused},
		{policy.Plan, nil, "rm -rf build", deny, refused},
		{policy.Plan, nil, "go test ./...", deny, refused},
		{policy.Plan, []policy.Rule{allowGoTest}, "go test ./...", deny, refused},
		{policy.Plan, []policy.Rule{allowRm}, "rm x", deny, "exit_plan_mode"},
		{policy.Plan, nil, "eval ls", deny, refused},
		{policy.Plan, nil, "sh -c 'rm x'", deny, refused},
		{policy.Plan, nil, "sed -i s/a/b/ x.go", deny, refused},
		{policy.Plan, []policy.Rule{rejectGit}, "git status", deny, "rejected"},
	})
	checkDecisions(t, command.PowerShell, []decisionCase{
		{policy.Plan, nil, "Get-ChildItem", deny, refused},
	})
}

func TestPlanModeTools(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	define(t, reg, "read", registry.EffectRead)
	define(t, reg, "write", registry.EffectWrite)
	define(t, reg, "edit", registry.EffectWrite)
	define(t, reg, "kill_job", registry.EffectExecute)
	define(t, reg, "mcp__docs__search", registry.EffectExternal)
	define(t, reg, "todo_write", registry.EffectOther)
	define(t, reg, "exit_plan_mode", registry.EffectOther)
	book := policy.OpenRuleBook(t.TempDir(), ws.Cwd())
	for _, r := range []policy.Rule{{Allow: true, Tool: "write"}, {Allow: true, Tool: "mcp__docs__search"}} {
		if err := book.Add(r); err != nil {
			t.Fatal(err)
		}
	}
	pol := policy.New(reg, ws, policy.Plan).WithRules(book)
	tests := []struct {
		tool, args string
		want       pipeline.DecisionKind
		reason     string
	}{
		{"read", `{"path":"a.go"}`, allow, ""},
		{"read", `{"path":"/etc/hosts"}`, ask, "outside the workspace"},
		{"todo_write", `{}`, allow, ""},
		{"exit_plan_mode", `{}`, allow, ""},
		{"write", `{"path":"a.go"}`, deny, "write: the session is in plan mode, which refuses changes to files"},
		{"write", `{"path":"/tmp/elsewhere"}`, deny, "plan mode"},
		{"edit", `{"path":"a.go"}`, deny, "present it with exit_plan_mode"},
		{"kill_job", `{}`, deny, "plan mode"},
		{"mcp__docs__search", `{}`, deny, "plan mode"},
	}
	for _, tt := range tests {
		args, err := registry.MaterializeArguments(tt.args)
		if err != nil {
			t.Fatal(err)
		}
		d := pol.Decide(registry.NewCall(registry.CallSpec{ID: "c", Name: tt.tool, Arguments: args}))
		if d.Kind != tt.want || !strings.Contains(d.Reason, tt.reason) {
			t.Errorf("%s %s: decision = %+v, want %v with %q", tt.tool, tt.args, d, tt.want, tt.reason)
		}
	}
}

func TestPlanModeRefusesLeavingTheSandbox(t *testing.T) {
	ws, _ := workspace.New(t.TempDir(), nil, workspace.Local{})
	reg := registry.New()
	define(t, reg, "bash", registry.EffectExecute)
	d := policy.New(reg, ws, policy.Plan).Decide(bashCall(t, map[string]any{"command": "ls", "sandbox": false}))
	if d.Kind != pipeline.DecisionDeny || !strings.Contains(d.Reason, "plan mode") {
		t.Errorf("decision = %+v, want a plan-mode refusal", d)
	}
}

func TestPresetChangesNothing(t *testing.T) {
	for _, tt := range []struct {
		p    policy.Preset
		want bool
	}{{policy.ReadOnly, true}, {policy.Plan, true}, {policy.WorkspaceWrite, false}, {policy.FullAccess, false}} {
		if got := tt.p.ChangesNothing(); got != tt.want {
			t.Errorf("%s.ChangesNothing() = %v, want %v", tt.p, got, tt.want)
		}
	}
}
