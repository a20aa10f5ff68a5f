package lsp

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// patient returns a context for one wait on s that knows the server may
// still be loading. Its quiet budget counts only while the server
// reports no work in progress, and starts afresh each time the server
// finishes its work; while the server is busy the wait goes on, for at
// most load from the moment it was first seen busy. When the context
// ends by itself, context.Cause is a *quietError (the server did not
// answer within quiet of being idle) or a *loadingError (it was still
// loading when the patience ran out). The whole wait never exceeds
// quiet+load. stop releases the context and waits for its watcher.
func (s *server) patient(ctx context.Context, quiet, load time.Duration) (pctx context.Context, stop func()) {
	pctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.watch(pctx, cancel, quiet, load)
	}()
	return pctx, func() {
		cancel(context.Canceled)
		<-done
	}
}

// watch ends ctx (with give) when the patience of patient runs out.
func (s *server) watch(ctx context.Context, give context.CancelCauseFunc, quiet, load time.Duration) {
	start := time.Now()
	total := time.NewTimer(quiet + load)
	defer total.Stop()
	quietTimer := time.NewTimer(quiet)
	defer quietTimer.Stop()
	var loadTimer *time.Timer
	var loadOver <-chan time.Time
	defer func() {
		if loadTimer != nil {
			loadTimer.Stop()
		}
	}()
	loadSpent := false
	wasBusy := false
	for {
		doing, changed := s.work.state()
		busy := doing != ""
		switch {
		case busy && loadSpent:
			give(&loadingError{server: s.cfg.Name, doing: doing, waited: time.Since(start)})
			return
		case busy && loadTimer == nil:
			loadTimer = time.NewTimer(load)
			loadOver = loadTimer.C
		}
		var quietOver <-chan time.Time
		if !busy {
			if wasBusy {
				quietTimer.Reset(quiet) // the server has finished: a fresh budget
			}
			quietOver = quietTimer.C
		}
		wasBusy = busy
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-quietOver:
			give(&quietError{server: s.cfg.Name, quiet: quiet})
			return
		case <-loadOver:
			loadSpent, loadOver = true, nil
		case <-total.C:
			if doing, _ := s.work.state(); doing != "" {
				give(&loadingError{server: s.cfg.Name, doing: doing, waited: time.Since(start)})
			} else {
				give(&quietError{server: s.cfg.Name, quiet: quiet})
			}
			return
		}
	}
}

// request runs ask on srv with patience for a server that is still
// loading (see patient): Options.CallTimeout counts only while the server
// reports no work in progress, and an answer that is an error or empty
// while the server was loading is asked again once it has finished, for
// at most Options.LoadTimeout of loading. A server still loading when
// that runs out gives a *loadingError.
func request[T any](ctx context.Context, m *Manager, srv *server, ask func(context.Context) ([]T, error)) ([]T, error) {
	pctx, stop := srv.patient(ctx, m.opts.CallTimeout, m.opts.LoadTimeout)
	defer stop()
	for {
		loading := srv.work.busy()
		res, err := ask(pctx)
		loading = loading || srv.work.busy()
		switch {
		case err == nil && (len(res) > 0 || !loading):
			return res, nil
		case err != nil && (!loading || pctx.Err() != nil || !srv.alive()):
			return nil, m.requestError(ctx, pctx, srv, err)
		}
		// Refused, or nothing found, while the server was loading: ask
		// again once it has finished.
		if !srv.work.waitIdle(pctx) {
			return nil, m.requestError(ctx, pctx, srv, context.Cause(pctx))
		}
	}
}

// requestError explains a failed request: a server that stopped, one
// still loading or silent when the patience of pctx ran out, or the
// server's own error.
func (m *Manager) requestError(ctx, pctx context.Context, srv *server, err error) error {
	var quiet *quietError
	switch {
	case !srv.alive():
		return fmt.Errorf("%s stopped while answering%s; it will be restarted once on the next use: %w", srv.cfg.Name, stderrTail(srv.proc), errStopped)
	case ctx.Err() != nil:
		return fmt.Errorf("%s: %w", srv.cfg.Name, ctx.Err())
	case stillLoading(pctx) != nil:
		return stillLoading(pctx)
	case errors.As(context.Cause(pctx), &quiet):
		return quiet
	default:
		return fmt.Errorf("%s: %w", srv.cfg.Name, err)
	}
}

// quietError is why a wait on an idle server ended: it gave no answer
// within the quiet budget.
type quietError struct {
	server string
	quiet  time.Duration
}

func (e *quietError) Error() string {
	return fmt.Sprintf("%s did not answer within %s", e.server, e.quiet)
}

// loadingError is why a wait on a server ended while the server was
// still loading; it reads as a note for the model.
type loadingError struct {
	server string
	doing  string // the work in progress, as the server describes it
	waited time.Duration
}

func (e *loadingError) Error() string {
	waited := e.waited.Round(time.Millisecond)
	if waited >= time.Second {
		waited = waited.Round(time.Second)
	}
	return fmt.Sprintf("%s is still loading (%s); gave up after waiting %s for it: ask again once it has finished",
		e.server, e.doing, waited)
}

// stillLoading returns the *loadingError that ended ctx, or nil.
func stillLoading(ctx context.Context) *loadingError {
	var e *loadingError
	if errors.As(context.Cause(ctx), &e) {
		return e
	}
	return nil
}
