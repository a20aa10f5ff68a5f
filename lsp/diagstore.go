package lsp

import (
	"context"
	"sort"
	"sync"

	"go.lsp.dev/protocol"
)

// diagStore holds the diagnostics a server last published, per file, and
// lets a caller wait for the next publication.
type diagStore struct {
	mu      sync.Mutex
	files   map[string]published
	changed chan struct{} // closed and replaced on every publication
}

// published is one file's latest diagnostics. Version is the document
// version they describe, -1 when the server did not say; seq counts the
// file's publications.
type published struct {
	version int32
	seq     uint64
	diags   []protocol.Diagnostic
}

func newDiagStore() *diagStore {
	return &diagStore{files: map[string]published{}, changed: make(chan struct{})}
}

// publish records path's diagnostics and wakes every waiter. Server
// notifications are handled concurrently, so a publication for an older
// version than the one recorded arrives late and is dropped.
func (s *diagStore) publish(path string, version int32, diags []protocol.Diagnostic) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.files[path]; ok && version >= 0 && version < old.version {
		return
	}
	seq := s.files[path].seq + 1
	s.files[path] = published{version: version, seq: seq, diags: diags}
	close(s.changed)
	s.changed = make(chan struct{})
}

// get returns path's latest publication (version -1 and seq 0 when there
// was none), and a channel closed at the next publication of any file.
func (s *diagStore) get(path string) (published, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.files[path]
	if !ok {
		p.version = -1
	}
	return p, s.changed
}

// all returns the diagnostics of every file that has some, by path.
func (s *diagStore) all() map[string][]protocol.Diagnostic {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]protocol.Diagnostic, len(s.files))
	for path, p := range s.files {
		if len(p.diags) > 0 {
			out[path] = p.diags
		}
	}
	return out
}

// wait waits until path has diagnostics published for version or a later
// one (or, from a server that sends no versions, any publication after
// the one numbered since), or until ctx ends. It reports whether such a
// publication arrived; the diagnostics are the latest known either way.
func (s *diagStore) wait(ctx context.Context, path string, version int32, since uint64) ([]protocol.Diagnostic, bool) {
	for {
		p, next := s.get(path)
		if p.version >= version || (p.version == -1 && p.seq > since) {
			return p.diags, true
		}
		select {
		case <-next:
		case <-ctx.Done():
			return p.diags, false
		}
	}
}

// sortedPaths returns the keys of m in order.
func sortedPaths[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
