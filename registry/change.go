package registry

import (
	"errors"
	"slices"
	"strconv"
)

// ChangeKind says what changed in a registry.
type ChangeKind int

// The change kinds.
const (
	ChangeRegistered ChangeKind = iota + 1
	ChangeUnregistered
	ChangeRestricted
)

// String returns "registered", "unregistered" or "restricted".
func (k ChangeKind) String() string {
	switch k {
	case ChangeRegistered:
		return "registered"
	case ChangeUnregistered:
		return "unregistered"
	case ChangeRestricted:
		return "restricted"
	}
	return "ChangeKind(" + strconv.Itoa(int(k)) + ")"
}

// ChangeEvent reports a change to the tools some scope sees.
type ChangeEvent struct {
	Kind ChangeKind
	// Scope is where the change was made; nil for the global layer.
	Scope *Scope
	// Name is the tool registered or unregistered ("" for restrictions).
	Name string
}

// ChangeListener observes registry changes. An error (or panic) from a
// listener rolls back the registration or restriction being made.
type ChangeListener func(ChangeEvent) error

type changeListener struct {
	fn ChangeListener
}

// OnChange adds fn and returns the disposer that removes it.
func (r *Registry) OnChange(fn ChangeListener) (dispose func()) {
	entry := &changeListener{fn: fn}
	r.mu.Lock()
	r.listeners = append(r.listeners, entry)
	r.mu.Unlock()
	return r.disposer(nil, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.listeners = slices.DeleteFunc(slices.Clone(r.listeners), func(l *changeListener) bool { return l == entry })
	})
}

// notify calls every listener outside the lock and joins their errors.
func (r *Registry) notify(ev ChangeEvent) error {
	r.mu.RLock()
	listeners := r.listeners
	r.mu.RUnlock()
	var errs []error
	for _, l := range listeners {
		if err := guard(func() error { return l.fn(ev) }); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
