package acp

import (
	"bytes"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// replies counts the answers owed to the client: the dispatcher expects
// one for every request it takes, and the stream marks it written once a
// response with that id has gone out whole. Serve's shutdown waits on
// drained, so that jsonrpc2's Close (which refuses every write after it
// began) drops no answer a handler has produced.
type replies struct {
	mu      sync.Mutex
	pending map[jsonrpc2.ID]int // answers owed per id: a duplicate id refused while the first is in flight owes a second
	total   int                 // the sum of pending
	drain   chan struct{}       // closed whenever total is 0
	// then holds what runs once the answer to an id is written (see
	// AfterAnswer).
	then map[jsonrpc2.ID][]func()
}

func newReplies() *replies {
	drain := make(chan struct{})
	close(drain)
	return &replies{pending: make(map[jsonrpc2.ID]int), drain: drain}
}

// expect records that the request id will be answered.
func (r *replies) expect(id jsonrpc2.ID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.total == 0 {
		r.drain = make(chan struct{})
	}
	r.pending[id]++
	r.total++
}

// after runs fn once the answer to id is written.
func (r *replies) after(id jsonrpc2.ID, fn func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.then == nil {
		r.then = map[jsonrpc2.ID][]func(){}
	}
	r.then[id] = append(r.then[id], fn)
}

// written records that an answer with id went out, and runs what waited
// for it. An id nothing is owed to (a bad frame's answer, null) is
// ignored.
func (r *replies) written(id jsonrpc2.ID) {
	r.mu.Lock()
	then := r.then[id]
	delete(r.then, id)
	r.mu.Unlock()
	for _, fn := range then {
		fn()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.pending[id]
	if n == 0 {
		return
	}
	if n == 1 {
		delete(r.pending, id)
	} else {
		r.pending[id] = n - 1
	}
	r.total--
	if r.total == 0 {
		close(r.drain)
	}
}

// drained returns a channel that is closed when no answer is owed (already
// closed when none is owed now).
func (r *replies) drained() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.drain
}

// owed reports how many answers have not been written yet.
func (r *replies) owed() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

// responsePrefix begins every response jsonrpc2 encodes, and only
// responses: a call or a notification has "method" where a response has
// "id" (see jsonrpc2.AppendResponse).
const responsePrefix = `{"jsonrpc":"2.0","id":`

// responseID reads the id of an encoded response frame; ok is false when
// the frame is a call or a notification.
func responseID(frame []byte) (id jsonrpc2.ID, ok bool) {
	if !bytes.HasPrefix(frame, []byte(responsePrefix)) {
		return jsonrpc2.ID{}, false
	}
	return leadingID(frame), true
}
