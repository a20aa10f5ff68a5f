package search

// WithVisitHook returns opts whose directory walks (grep's built-in search
// and glob) call fn with each file they are about to visit, on the
// goroutine visiting it, after checking that the call is still wanted. A
// test uses it to hold a walk at a known point: fn blocks, and every
// worker that reaches a file waits in it.
func WithVisitHook(opts Options, fn func(path string)) Options {
	opts.onVisit = fn
	return opts
}
