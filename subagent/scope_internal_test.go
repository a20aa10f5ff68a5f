package subagent

import (
	"context"
	"slices"
	"testing"

	"github.com/dsh-acp/dsh-acp/registry"
)

func namedTool(t *testing.T, name string) *registry.Tool {
	t.Helper()
	tool, err := registry.Define(registry.Spec[struct{}, string]{
		Name: name, Handler: func(context.Context, *registry.Call, struct{}) (string, error) { return "", nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestChildScopeRestrictionSemantics: a child's tools are its parent's
// through a registry restriction, not a copy — so a deny-only type lets
// a tool the parent gets later through, an allow list keeps it out, the
// parent's task tool never reaches a child, and names the parent does
// not have are ignored.
func TestChildScopeRestrictionSemantics(t *testing.T) {
	tests := []struct {
		name string
		t    Type
		want []string // after "late" is registered in the parent
	}{
		{"deny only", Type{Name: "d", Deny: []string{"bash"}}, []string{"read", "late"}},
		{"allow list", Type{Name: "a", Tools: []string{"read", "bash", "missing"}}, []string{"read", "bash"}},
		{"allow and deny intersect", Type{Name: "ad", Tools: []string{"read", "bash"}, Deny: []string{"bash"}}, []string{"read"}},
		{"no filter", Type{Name: "n"}, []string{"read", "bash", "late"}},
		{"an allow list naming a parent-only tool", Type{Name: "p", Tools: []string{"read", "exit_plan_mode"}}, []string{"read"}},
		{"allow naming only missing tools", Type{Name: "m", Tools: []string{"missing"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := registry.New()
			parent := reg.NewScope("parent", nil)
			defer parent.Close()
			for _, n := range []string{"read", "bash", TaskTool, "exit_plan_mode"} {
				if _, err := reg.Register(parent, namedTool(t, n)); err != nil {
					t.Fatal(err)
				}
			}
			child, err := newChildScope(reg, parent, "child", tt.t, []string{"exit_plan_mode", "not_registered"})
			if err != nil {
				t.Fatal(err)
			}
			defer child.Close()
			if _, err := reg.Register(parent, namedTool(t, "late")); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tool := range reg.Tools(child) {
				got = append(got, tool.Name())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("the child sees %v, want %v", got, tt.want)
			}
			for _, never := range []string{TaskTool, "exit_plan_mode"} {
				if reg.Get(never, child) != nil {
					t.Errorf("the child resolves the parent's %s", never)
				}
			}
		})
	}
}
