package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// shutdownLimit bounds the graceful shutdown a first SIGINT or SIGTERM
// starts; past it the process ends as on a second signal.
const shutdownLimit = 10 * time.Second

// watchSignals turns the signals arriving on sigs into the program's
// shutdown. The first SIGINT or SIGTERM cancels the returned context, its
// cause naming the signal: the program then ends every turn, stops every
// command and exits 0. A second SIGINT or SIGTERM, or the channel limit
// returns (called at the first signal) delivering, calls abort at once
// with the exit status — 128 plus the signal's number, or 1 when the
// graceful shutdown did not finish in time — and ends the watch. SIGPIPE
// is swallowed: a write to a closed stdout then fails with EPIPE, which
// shuts the server down like a closed stdin, instead of killing the
// process before it can stop its commands.
//
// stop ends the watch and waits for it; it is idempotent.
func watchSignals(parent context.Context, sigs <-chan os.Signal, limit func() <-chan time.Time, abort func(code int, why string)) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	quit := make(chan struct{})
	var watching sync.WaitGroup
	watching.Go(func() {
		var expired <-chan time.Time
		for {
			select {
			case sig := <-sigs:
				if sig == syscall.SIGPIPE {
					continue
				}
				if expired == nil {
					cancel(fmt.Errorf("%v signal received", sig))
					expired = limit()
					continue
				}
				abort(128+signalNumber(sig), fmt.Sprintf("second signal (%v) during the shutdown", sig))
				return
			case <-expired:
				abort(1, fmt.Sprintf("the shutdown did not finish within %v", shutdownLimit))
				return
			case <-quit:
				return
			}
		}
	})
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			close(quit)
			watching.Wait()
			cancel(nil)
		})
	}
}

// signalNumber is sig's number (SIGTERM is 15), or 0 for a signal that has
// none.
func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 0
}
