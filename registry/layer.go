package registry

// layer holds what one scope (or the global layer) registered. The registry's
// lock guards every field.
type layer struct {
	tools        toolTable
	restrictions []*restriction
	guards       []*guardEntry
}

// toolEntry is one registration; its pointer identity lets a disposer remove
// exactly the registration it made.
type toolEntry struct {
	tool *Tool
}

// toolTable is an insertion-ordered name → entry map.
type toolTable struct {
	names  []string
	byName map[string]*toolEntry
}

func (t *toolTable) get(name string) *toolEntry {
	return t.byName[name]
}

func (t *toolTable) add(name string, e *toolEntry) {
	if t.byName == nil {
		t.byName = make(map[string]*toolEntry)
	}
	t.byName[name] = e
	t.names = append(t.names, name)
}

// remove deletes name only if it still holds e.
func (t *toolTable) remove(name string, e *toolEntry) bool {
	if t.byName[name] != e {
		return false
	}
	delete(t.byName, name)
	for i, n := range t.names {
		if n == name {
			t.names = append(t.names[:i:i], t.names[i+1:]...)
			break
		}
	}
	return true
}
