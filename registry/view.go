package registry

// resolvedView is the ordered set of tools one scope sees.
type resolvedView struct {
	names  []string
	byName map[string]*Tool
	// inherited lists the names the scope inherits before restrictions: the
	// names a restriction in the scope may mention.
	inherited []string
}

func (v *resolvedView) set(name string, t *Tool) {
	if _, ok := v.byName[name]; !ok {
		v.names = append(v.names, name)
	}
	v.byName[name] = t
}

// view resolves scope's visible tools; the caller holds r.mu.
func (r *Registry) view(scope *Scope) resolvedView {
	inherited := resolvedView{byName: make(map[string]*Tool)}
	for _, n := range r.global.tools.names {
		inherited.set(n, r.global.tools.byName[n].tool)
	}
	if scope != nil {
		for _, a := range scope.ancestors() {
			for _, n := range a.layer.tools.names {
				inherited.set(n, a.layer.tools.byName[n].tool)
			}
		}
	}
	v := resolvedView{byName: make(map[string]*Tool), inherited: inherited.names}
	for _, n := range inherited.names {
		if admittedInChain(scope, n) {
			v.set(n, inherited.byName[n])
		}
	}
	if scope != nil && !scope.closed {
		for _, n := range scope.layer.tools.names {
			v.set(n, scope.layer.tools.byName[n].tool)
		}
	}
	return v
}

// admittedInChain reports whether every restriction of scope's chain admits
// name; the caller holds r.mu.
func admittedInChain(scope *Scope, name string) bool {
	for s := scope; s != nil; s = s.parent {
		for _, res := range s.layer.restrictions {
			if !res.admits(name) {
				return false
			}
		}
	}
	return true
}
