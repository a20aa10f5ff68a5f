package acp

import (
	"context"
	"errors"
	"sync"
)

// Causes of a cancelled handler context, readable with context.Cause.
var (
	// ErrRequestCancelled is the cause when the client sent
	// $/cancel_request for the request. An Agent method that then returns
	// an error is answered -32800.
	ErrRequestCancelled = errors.New("acp: request cancelled by the client ($/cancel_request)")

	// ErrSessionCancelled is the cause when the client sent session/cancel
	// for the session a session/prompt runs in. A Prompt that then returns
	// an error caused by the cancellation is answered
	// {"stopReason":"cancelled"}, never an error.
	ErrSessionCancelled = errors.New("acp: prompt turn cancelled by the client (session/cancel)")

	// ErrDisconnected is the cause when the client's stream ended (stdin
	// reached EOF or failed, or a write to stdout failed): every in-flight
	// handler is cancelled with it.
	ErrDisconnected = errors.New("acp: client disconnected")
)

// cancelSet maps a key (a request id, a session id) to the cancel
// functions of the handler contexts registered under it. Several handlers
// may share a key; each registration is removed by the func track returns.
type cancelSet[K comparable] struct {
	mu   sync.Mutex
	next uint64
	byID map[K]map[uint64]context.CancelCauseFunc
}

// track derives a cancellable context for key. The returned release must
// be called when the handler is done; it unregisters and frees the context.
func (s *cancelSet[K]) track(ctx context.Context, key K) (context.Context, func()) {
	ctx, release, _ := s.add(ctx, key, false)
	return ctx, release
}

// trackNew is track for a key that must not be registered already: when
// it is, nothing is registered, release is nil and fresh is false.
func (s *cancelSet[K]) trackNew(ctx context.Context, key K) (_ context.Context, release func(), fresh bool) {
	return s.add(ctx, key, true)
}

func (s *cancelSet[K]) add(parent context.Context, key K, unique bool) (context.Context, func(), bool) {
	s.mu.Lock()
	if unique && len(s.byID[key]) > 0 {
		s.mu.Unlock()
		return parent, nil, false
	}
	ctx, cancel := context.WithCancelCause(parent)
	if s.byID == nil {
		s.byID = make(map[K]map[uint64]context.CancelCauseFunc)
	}
	s.next++
	n := s.next
	if s.byID[key] == nil {
		s.byID[key] = make(map[uint64]context.CancelCauseFunc)
	}
	s.byID[key][n] = cancel
	s.mu.Unlock()
	return ctx, func() {
		s.mu.Lock()
		delete(s.byID[key], n)
		if len(s.byID[key]) == 0 {
			delete(s.byID, key)
		}
		s.mu.Unlock()
		cancel(nil)
	}, true
}

// cancel cancels every context registered under key with cause and
// reports how many there were.
func (s *cancelSet[K]) cancel(key K, cause error) int {
	s.mu.Lock()
	fns := make([]context.CancelCauseFunc, 0, len(s.byID[key]))
	for _, fn := range s.byID[key] {
		fns = append(fns, fn)
	}
	s.mu.Unlock()
	for _, fn := range fns {
		fn(cause)
	}
	return len(fns)
}
