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

// TestUnreadableRulesAskAndAreToldOnce: while the rule file cannot be
// read, a call the preset would allow asks (a reject rule there may
// forbid it), the user is told once however many calls come, and once the
// file is fixed its rules hold again; a new breakage is told again.
func TestUnreadableRulesAskAndAreToldOnce(t *testing.T) {
	project := t.TempDir()
	ws, err := workspace.New(project, nil, workspace.Local{})
	if err != nil {
		t.Fatal(err)
	}
	reg := registry.New()
	define(t, reg, "write", registry.EffectWrite)
	args, err := registry.MaterializeArguments(`{"path":"a.txt"}`)
	if err != nil {
		t.Fatal(err)
	}
	write := registry.NewCall(registry.CallSpec{ID: "c", Name: "write", Arguments: args})
	book := policy.OpenRuleBook(t.TempDir(), project)
	if err := book.Add(policy.Rule{Tool: "write"}); err != nil { // reject every write
		t.Fatal(err)
	}
	var told []string
	pol := policy.New(reg, ws, policy.FullAccess).WithRules(book).WithReport(func(s string) { told = append(told, s) })
	breakFile := func(text string) {
		t.Helper()
		if err := os.WriteFile(book.Path(), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	saved, err := os.ReadFile(book.Path())
	if err != nil {
		t.Fatal(err)
	}

	if d := pol.Decide(write); d.Kind != pipeline.DecisionDeny {
		t.Fatalf("with the rule readable: %+v, want the reject rule", d)
	}
	breakFile("{not json")
	for range 3 {
		d := pol.Decide(write)
		if d.Kind != pipeline.DecisionAsk || !strings.Contains(d.Reason, "remembered rules cannot be read") {
			t.Fatalf("with the rule file broken: %+v, want an ask saying why", d)
		}
	}
	if len(told) != 1 || !strings.Contains(told[0], filepath.Base(book.Path())) || !strings.Contains(told[0], "every call asks") {
		t.Fatalf("told %q, want once, naming the file and what it means", told)
	}
	breakFile(string(saved))
	if d := pol.Decide(write); d.Kind != pipeline.DecisionDeny {
		t.Fatalf("with the file fixed: %+v, want the reject rule again", d)
	}
	breakFile("[]")
	pol.Decide(write)
	if len(told) != 2 {
		t.Errorf("told %q, want the second breakage told too", told)
	}
}
