package registry

import "sync"

// Scope is an agent's layer of the registry. Tools registered in a scope
// are visible only to calls made for it (and shadow inherited tools of the
// same name); restrictions and guards registered in a scope apply to it and
// to every scope nested below it.
type Scope struct {
	reg    *Registry
	parent *Scope
	name   string

	// layer and closed are guarded by reg.mu.
	layer  layer
	closed bool

	disposeMu sync.Mutex
	disposers []func()
}

// NewScope returns a new scope below parent (nil: directly below the
// global layer). name is for diagnostics only.
func (r *Registry) NewScope(name string, parent *Scope) *Scope {
	return &Scope{reg: r, parent: parent, name: name}
}

// Name returns the scope's diagnostic name.
func (s *Scope) Name() string { return s.name }

// Parent returns the enclosing scope, or nil.
func (s *Scope) Parent() *Scope { return s.parent }

// Close undoes every registration, restriction and guard made in the scope,
// newest first, and refuses new ones. It is idempotent.
func (s *Scope) Close() {
	s.disposeMu.Lock()
	disposers := s.disposers
	s.disposers = nil
	s.disposeMu.Unlock()
	for i := len(disposers) - 1; i >= 0; i-- {
		disposers[i]()
	}
	s.reg.mu.Lock()
	s.closed = true
	s.reg.mu.Unlock()
}

func (s *Scope) track(dispose func()) {
	s.disposeMu.Lock()
	defer s.disposeMu.Unlock()
	s.disposers = append(s.disposers, dispose)
}

// chain returns s's ancestors from the farthest to the nearest, excluding s.
func (s *Scope) ancestors() []*Scope {
	var out []*Scope
	for p := s.parent; p != nil; p = p.parent {
		out = append(out, p)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
