package acp

import (
	"context"

	"go.lsp.dev/jsonrpc2"
)

// answerKey keys the request a method's context answers.
type answerKey struct{}

// answering is the request a method's context belongs to.
type answering struct {
	replies *replies
	id      jsonrpc2.ID
}

// AfterAnswer runs fn once the answer to the request whose ctx this is has
// been written to the client: a session/new can then send updates about
// the session the client has just learnt the id of. It reports false, and
// does not keep fn, when ctx belongs to no request (call fn yourself). fn
// runs on the connection's writer and must not block; it does not run
// when the answer is never written (the connection broke).
func AfterAnswer(ctx context.Context, fn func()) bool {
	a, ok := ctx.Value(answerKey{}).(answering)
	if !ok {
		return false
	}
	a.replies.after(a.id, fn)
	return true
}
