package registry_test

import (
	"testing"

	"github.com/dsh-acp/dsh-acp/registry"
)

// TestTopLevel: a call is a model's own when nothing dispatched it, or
// when its parent runs for another scope (a child agent's call inside its
// parent's task call); a call a composite tool dispatches in its own
// scope is nested.
func TestTopLevel(t *testing.T) {
	reg := registry.New()
	parentScope := reg.NewScope("parent", nil)
	childScope := reg.NewScope("child", parentScope)
	task := registry.NewCall(registry.CallSpec{ID: "task_1", Name: "task", Scope: parentScope})
	tests := []struct {
		name string
		spec registry.CallSpec
		want bool
	}{
		{"no parent", registry.CallSpec{ID: "c", Name: "read", Scope: parentScope}, true},
		{"a child agent's call", registry.CallSpec{ID: "c", Name: "read", Scope: childScope, Parent: task}, true},
		{"nested in its own scope", registry.CallSpec{ID: "c", Name: "read", Scope: parentScope, Parent: task}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := registry.NewCall(tt.spec).TopLevel(); got != tt.want {
				t.Errorf("TopLevel() = %v, want %v", got, tt.want)
			}
		})
	}
}
