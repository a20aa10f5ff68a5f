package registry

import "slices"

// GuardFunc vets a call after pre-execute has allowed it. It returns a
// reason to deny it, or "" to abstain; a guard can never allow.
type GuardFunc func(call *Call) string

type guardEntry struct {
	fn GuardFunc
}

// Guard adds fn to scope's guards (the global guards when scope is nil) and
// returns the disposer that removes it. Guards do not emit change events.
func (r *Registry) Guard(scope *Scope, fn GuardFunc) (dispose func(), err error) {
	entry := &guardEntry{fn: fn}
	r.mu.Lock()
	l, err := r.layerOf(scope)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	l.guards = append(l.guards, entry)
	r.mu.Unlock()
	return r.disposer(scope, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		l.guards = slices.DeleteFunc(slices.Clone(l.guards), func(g *guardEntry) bool { return g == entry })
	}), nil
}

// CheckGuards runs the guards that apply to call: the global guards in
// registration order, then, for a call with a scope, each layer of its
// chain from the farthest ancestor to the scope itself. The first reason
// returned denies. Iteration is live: a guard added by an earlier guard
// during the pass is evaluated too. A panicking guard denies with its
// panic's message.
func (r *Registry) CheckGuards(call *Call) string {
	var buf [8]*layer
	layers := append(buf[:0], &r.global)
	if s := call.Scope(); s != nil {
		for _, a := range s.ancestors() {
			layers = append(layers, &a.layer)
		}
		layers = append(layers, &s.layer)
	}
	for _, l := range layers {
		for i := 0; ; i++ {
			r.mu.RLock()
			if i >= len(l.guards) {
				r.mu.RUnlock()
				break
			}
			g := l.guards[i]
			r.mu.RUnlock()
			if reason := runGuard(g.fn, call); reason != "" {
				return reason
			}
		}
	}
	return ""
}

func runGuard(fn GuardFunc, call *Call) (reason string) {
	if err := guard(func() error {
		reason = fn(call)
		return nil
	}); err != nil {
		return err.Error()
	}
	return reason
}
