package registry

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Restriction filters the tools a scope inherits. A nil Allow or Deny is
// unset; an empty, non-nil Allow admits nothing. A name is admitted when
// Allow is unset or lists it, and Deny is unset or does not list it.
type Restriction struct {
	Allow []string
	Deny  []string
}

// restriction is a Restriction compiled to sets when it was made.
type restriction struct {
	allow map[string]bool
	deny  map[string]bool
}

func (r *restriction) admits(name string) bool {
	if r.allow != nil && !r.allow[name] {
		return false
	}
	return !r.deny[name]
}

func toSet(names []string) map[string]bool {
	if names == nil {
		return nil
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// Restrict narrows the tools scope (and every scope below it) inherits.
// Restrictions intersect; the returned disposer lifts only this one. The
// filter is copied now, and applies to tools registered later too. The
// scope's own tools are never filtered. Restrict fails loudly on misuse: no
// scope, an empty filter, the reserved name, or a name the scope does not
// inherit.
func (r *Registry) Restrict(scope *Scope, filter Restriction) (dispose func(), err error) {
	if scope == nil {
		return nil, errors.New("Restrict requires a scope (an agent's): a restriction of the global layer would hide the tools from every agent — restrict the intended agent's scope instead")
	}
	if filter.Allow == nil && filter.Deny == nil {
		return nil, errors.New("Restrict with an empty filter is a no-op: pass Allow and/or Deny (an empty filter is almost always a materialized-empty-config bug)")
	}
	named := append(slices.Clone(filter.Allow), filter.Deny...)
	if slices.Contains(named, ReservedName) {
		return nil, fmt.Errorf("Restrict cannot name reserved Code Mode presentation transport %q; restrict end-capability tools instead", ReservedName)
	}
	res := &restriction{allow: toSet(filter.Allow), deny: toSet(filter.Deny)}

	r.mu.Lock()
	l, err := r.layerOf(scope)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	known := r.view(scope).inherited
	if unknown := missingNames(named, known); len(unknown) > 0 {
		r.mu.Unlock()
		return nil, unknownNamesError(scope, unknown, known)
	}
	l.restrictions = append(l.restrictions, res)
	r.mu.Unlock()

	remove := func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		l.restrictions = slices.DeleteFunc(slices.Clone(l.restrictions), func(x *restriction) bool { return x == res })
	}
	if err := r.notify(ChangeEvent{Kind: ChangeRestricted, Scope: scope}); err != nil {
		remove()
		return nil, err
	}
	return r.disposer(scope, func() {
		remove()
		_ = r.notify(ChangeEvent{Kind: ChangeRestricted, Scope: scope})
	}), nil
}

func missingNames(names, known []string) []string {
	var missing []string
	for _, n := range names {
		if !slices.Contains(known, n) && !slices.Contains(missing, n) {
			missing = append(missing, n)
		}
	}
	return missing
}

// unknownNamesError says which names scope does not inherit, and lists
// those it does.
func unknownNamesError(scope *Scope, unknown, known []string) error {
	quoted := make([]string, len(unknown))
	for i, n := range unknown {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	what := "tool " + quoted[0]
	if len(unknown) > 1 {
		what = "tools " + strings.Join(quoted, ", ")
	}
	list := "(none)"
	if len(known) > 0 {
		sorted := slices.Sorted(slices.Values(known))
		list = strings.Join(sorted, ", ")
	}
	return fmt.Errorf("Restrict names %s, which scope %q does not inherit; it inherits: %s", what, scope.Name(), list)
}
