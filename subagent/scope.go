package subagent

import (
	"fmt"
	"slices"

	"github.com/dsh-acp/dsh-acp/registry"
)

// newChildScope returns the scope a child of type t runs in: below
// parent, so it inherits what parent sees, narrowed by t's restriction
// (the registry's: an allow list admits only the tools it names, even
// those registered later; a deny list only hides the tools it names), and
// never with parent's task tool — a child that may start children gets a
// task tool of its own — nor the tools parentOnly names. Names of tools parent does not see are left out
// of the restriction: an allow list naming only such tools admits none.
func newChildScope(reg *registry.Registry, parent *registry.Scope, id string, t Type, parentOnly []string) (*registry.Scope, error) {
	scope := reg.NewScope(id, parent)
	var known []string
	for _, tool := range reg.Tools(scope) {
		known = append(known, tool.Name())
	}
	filter := registry.Restriction{Allow: keepKnown(t.Tools, known), Deny: keepKnown(t.Deny, known)}
	if filter.Allow != nil || len(filter.Deny) > 0 {
		if _, err := reg.Restrict(scope, filter); err != nil {
			scope.Close()
			return nil, fmt.Errorf("subagent type %s: %w", t.Name, err)
		}
	}
	if never := keepKnown(append([]string{TaskTool}, parentOnly...), known); len(never) > 0 {
		if _, err := reg.Restrict(scope, registry.Restriction{Deny: never}); err != nil {
			scope.Close()
			return nil, fmt.Errorf("subagent type %s: %w", t.Name, err)
		}
	}
	return scope, nil
}

// keepKnown is names without those known lacks; nil stays nil, so an
// allow list stays one.
func keepKnown(names, known []string) []string {
	if names == nil {
		return nil
	}
	out := []string{}
	for _, n := range names {
		if slices.Contains(known, n) {
			out = append(out, n)
		}
	}
	return out
}
