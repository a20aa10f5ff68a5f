package policy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsh-acp/dsh-acp/policy"
)

// Rules are kept per project, survive a new RuleBook (a restart, another
// process), replace a rule about the same calls, and can be removed.
func TestRuleBookKeepsRulesPerProject(t *testing.T) {
	state := t.TempDir()
	a := policy.OpenRuleBook(state, "/srv/project")
	allow := policy.Rule{Allow: true, Tool: "bash", Command: []string{"go", "test"}}
	if err := a.Add(allow); err != nil {
		t.Fatal(err)
	}
	if err := a.Add(policy.Rule{Allow: true, Tool: "read", Path: "/etc"}); err != nil {
		t.Fatal(err)
	}
	b := policy.OpenRuleBook(state, "/srv/project/") // the same project, another process
	rules, err := b.Rules()
	if err != nil || len(rules) != 2 || rules[0].String() != "allow `go test …`" || rules[1].String() != "allow read under /etc" {
		t.Fatalf("rules in a second book = %v, %v", rules, err)
	}
	// A later reject of the same command replaces the allow.
	if err := b.Add(policy.Rule{Tool: "bash", Command: []string{"go", "test"}}); err != nil {
		t.Fatal(err)
	}
	rules, _ = a.Rules()
	if len(rules) != 2 || rules[1].String() != "reject `go test …`" {
		t.Fatalf("after the reject, the first book sees %v", rules)
	}
	if removed, err := a.Remove(0); err != nil || removed.Tool != "read" {
		t.Fatalf("Remove(0) = %v, %v", removed, err)
	}
	if _, err := a.Remove(5); err == nil || !strings.Contains(err.Error(), "no rule 6") {
		t.Errorf("removing a missing rule: %v", err)
	}
	if other, _ := policy.OpenRuleBook(state, "/srv/other").Rules(); len(other) != 0 {
		t.Errorf("another project sees %v", other)
	}
	info, err := os.Stat(a.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("rule file mode = %v, %v; want 0600", info.Mode().Perm(), err)
	}
	if dir, err := os.Stat(filepath.Dir(a.Path())); err != nil || dir.Mode().Perm() != 0o700 {
		t.Errorf("rule dir mode = %v, %v; want 0700", dir.Mode().Perm(), err)
	}
}

// A corrupt rule file is an error, never silently empty.
func TestRuleBookRefusesACorruptFile(t *testing.T) {
	b := policy.OpenRuleBook(t.TempDir(), "/p")
	if err := os.MkdirAll(filepath.Dir(b.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b.Path(), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Rules(); err == nil {
		t.Error("a corrupt rule file read as no rules")
	}
	if err := b.Add(policy.Rule{Allow: true, Tool: "edit"}); err == nil {
		t.Error("a rule added over a corrupt file (its rules would be lost)")
	}
}
