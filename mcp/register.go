package mcp

import (
	"fmt"
	"sync"

	"github.com/dsh-acp/dsh-acp/registry"
)

// Register registers the servers' tools (Tools) in scope and keeps them in
// step whenever they change: a tool that is gone is unregistered, a new one
// registered, one whose description or schema changed replaced; a tool
// that did not change stays registered throughout, so calls to it never
// miss it. It fails, registering nothing, when a tool cannot be
// registered. dispose unregisters every tool and stops following changes.
func (s *Servers) Register(reg *registry.Registry, scope *registry.Scope) (dispose func(), err error) {
	r := &registration{servers: s, reg: reg, scope: scope, live: make(map[string]registered)}
	if err := r.sync(); err != nil {
		r.dispose()
		return nil, err
	}
	s.OnToolsChanged(func() {
		if err := r.sync(); err != nil {
			s.opts.logger().Warn("mcp tools not registered again", "err", err)
		}
	})
	return r.dispose, nil
}

// registration is the set of tools Register keeps in a scope.
type registration struct {
	servers *Servers
	reg     *registry.Registry
	scope   *registry.Scope

	mu       sync.Mutex
	live     map[string]registered
	disposed bool
}

// registered is one registered tool: what it is, and how to unregister it.
type registered struct {
	key     string
	dispose func()
}

func (r *registration) sync() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.disposed {
		return nil
	}
	want := make(map[string]builtTool)
	for _, b := range r.servers.build() {
		want[b.tool.Name()] = b
	}
	for name, have := range r.live {
		if b, ok := want[name]; !ok || b.key != have.key {
			have.dispose()
			delete(r.live, name)
		}
	}
	for name, b := range want {
		if _, ok := r.live[name]; ok {
			continue
		}
		d, err := r.reg.Register(r.scope, b.tool)
		if err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
		r.live[name] = registered{key: b.key, dispose: d}
	}
	return nil
}

func (r *registration) dispose() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.disposed = true
	for name, have := range r.live {
		have.dispose()
		delete(r.live, name)
	}
}
