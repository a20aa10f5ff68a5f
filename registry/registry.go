package registry

import (
	"errors"
	"fmt"
	"sync"
)

// Registry holds tool definitions in a global layer plus one layer per
// scope, and resolves which tools each scope sees. It is safe for
// concurrent use. The zero value is not usable: call New.
type Registry struct {
	mu        sync.RWMutex
	global    layer
	listeners []*changeListener
}

// New returns an empty registry.
func New() *Registry {
	return &Registry{}
}

// Register adds t to scope's layer (the global layer when scope is nil) and
// returns the disposer that removes exactly this registration; disposers
// are idempotent. A name may appear once per layer; a scope's tool shadows
// an inherited one of the same name. The reserved name is refused. When a
// change listener fails, the registration is rolled back and its error
// returned.
func (r *Registry) Register(scope *Scope, t *Tool) (dispose func(), err error) {
	if t == nil || t.behavior == nil {
		return nil, errors.New("register: the tool must be built with Define or DefineRaw")
	}
	if t.name == ReservedName {
		return nil, fmt.Errorf("tool name %q is reserved for the Code Mode presentation transport and cannot be registered or shadowed", ReservedName)
	}
	entry := &toolEntry{tool: t}
	r.mu.Lock()
	l, err := r.layerOf(scope)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	if l.tools.get(t.name) != nil {
		r.mu.Unlock()
		if scope == nil {
			return nil, fmt.Errorf("tool %q is already registered (for a per-agent variant, register through that agent's scope instead)", t.name)
		}
		return nil, fmt.Errorf("tool %q is already registered in this scope", t.name)
	}
	l.tools.add(t.name, entry)
	r.mu.Unlock()

	remove := func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return l.tools.remove(t.name, entry)
	}
	if err := r.notify(ChangeEvent{Kind: ChangeRegistered, Scope: scope, Name: t.name}); err != nil {
		remove()
		return nil, err
	}
	dispose = r.disposer(scope, func() {
		if remove() {
			_ = r.notify(ChangeEvent{Kind: ChangeUnregistered, Scope: scope, Name: t.name})
		}
	})
	return dispose, nil
}

// Get returns the tool name resolves to for scope (nil: an agent-less
// call), or nil when it is unknown, restricted away or foreign to scope.
func (r *Registry) Get(name string, scope *Scope) *Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if scope != nil && !scope.closed {
		if e := scope.layer.tools.get(name); e != nil {
			return e.tool
		}
	}
	var found *Tool
	for s := scopeParent(scope); s != nil; s = s.parent {
		if e := s.layer.tools.get(name); e != nil {
			found = e.tool
			break
		}
	}
	if found == nil {
		if e := r.global.tools.get(name); e != nil {
			found = e.tool
		}
	}
	if found == nil || !admittedInChain(scope, name) {
		return nil
	}
	return found
}

// Tools returns the tools scope sees, in view order: inherited tools in
// first-registration order (an ancestor's same-name tool takes the
// inherited slot), filtered by every restriction of the chain, then the
// scope's own tools, which shadow in place and are never filtered.
func (r *Registry) Tools(scope *Scope) []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v := r.view(scope)
	out := make([]*Tool, len(v.names))
	for i, n := range v.names {
		out[i] = v.byName[n]
	}
	return out
}

// Schemas projects every tool scope sees to exactly its name, description
// and parameters, in view order. The returned values are the caller's own.
func (r *Registry) Schemas(scope *Scope) []Schema {
	tools := r.Tools(scope)
	out := make([]Schema, len(tools))
	for i, t := range tools {
		s := t.Schema()
		s.Parameters = append([]byte(nil), s.Parameters...)
		out[i] = s
	}
	return out
}

// layerOf returns scope's layer; the caller holds r.mu.
func (r *Registry) layerOf(scope *Scope) (*layer, error) {
	if scope == nil {
		return &r.global, nil
	}
	if scope.reg != r {
		return nil, errors.New("the scope belongs to another registry")
	}
	if scope.closed {
		return nil, errors.New("the scope is closed")
	}
	return &scope.layer, nil
}

// disposer wraps undo so it runs once, and ties it to scope's lifetime.
func (r *Registry) disposer(scope *Scope, undo func()) func() {
	var once sync.Once
	dispose := func() { once.Do(undo) }
	if scope != nil {
		scope.track(dispose)
	}
	return dispose
}

func scopeParent(s *Scope) *Scope {
	if s == nil {
		return nil
	}
	return s.parent
}
