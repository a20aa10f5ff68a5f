package pipeline

import "context"

// fuse returns a context cancelled when either caller or replaced is, with
// the first cause. A wrapper can therefore replace the body's context but
// never detach it from the caller's cancellation. Pass stop and cancel to
// release when the body is done; either may be nil.
func fuse(caller, replaced context.Context) (ctx context.Context, stop func() bool, cancel context.CancelCauseFunc) {
	if replaced == caller || caller.Done() == nil {
		// Identical, or the caller can never be cancelled: nothing to fuse.
		return replaced, nil, nil
	}
	fused, cancel := context.WithCancelCause(replaced)
	if caller.Err() != nil {
		cancel(context.Cause(caller))
		return fused, nil, cancel
	}
	stop = context.AfterFunc(caller, func() { cancel(context.Cause(caller)) })
	return fused, stop, cancel
}

// release frees what fuse set up.
func release(stop func() bool, cancel context.CancelCauseFunc) {
	if stop != nil {
		stop()
	}
	if cancel != nil {
		cancel(context.Canceled)
	}
}
