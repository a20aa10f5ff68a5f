package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The first SIGINT or SIGTERM asks for a graceful shutdown; a second one,
// or the shutdown limit passing, ends the process at once. SIGPIPE never
// does anything.
func TestWatchSignals(t *testing.T) {
	tests := []struct {
		name     string
		signals  []os.Signal
		expire   bool // the shutdown limit passes after the signals
		wantCode int  // 0: no abort
		wantWhy  string
	}{
		{name: "SIGTERM shuts down gracefully", signals: []os.Signal{syscall.SIGTERM}},
		{name: "SIGINT shuts down gracefully", signals: []os.Signal{os.Interrupt}},
		{name: "a second SIGTERM exits at once", signals: []os.Signal{syscall.SIGTERM, syscall.SIGTERM}, wantCode: 143, wantWhy: "second signal"},
		{name: "SIGINT after SIGTERM exits at once", signals: []os.Signal{syscall.SIGTERM, os.Interrupt}, wantCode: 130, wantWhy: "second signal"},
		{name: "the shutdown limit exits at once", signals: []os.Signal{syscall.SIGTERM}, expire: true, wantCode: 1, wantWhy: "did not finish"},
		{name: "SIGPIPE is ignored", signals: []os.Signal{syscall.SIGPIPE, syscall.SIGPIPE}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sigs := make(chan os.Signal)
			expired := make(chan time.Time)
			type abort struct {
				code int
				why  string
			}
			aborted := make(chan abort, 1)
			ctx, stop := watchSignals(context.Background(), sigs, func() <-chan time.Time { return expired },
				func(code int, why string) { aborted <- abort{code, why} })
			defer stop()
			for _, sig := range tt.signals {
				sigs <- sig // unbuffered: the watcher has taken it
			}
			if tt.expire {
				expired <- time.Time{}
			}
			graceful := tt.signals[0] != syscall.SIGPIPE
			if graceful {
				<-ctx.Done() // hangs (and the test times out) when the signal is ignored
				if cause := context.Cause(ctx).Error(); !strings.Contains(cause, "signal") {
					t.Errorf("cause = %q, want the signal named", cause)
				}
			} else if ctx.Err() != nil {
				t.Error("SIGPIPE cancelled the context")
			}
			if tt.wantCode == 0 {
				stop() // waits for the watcher: nothing more can arrive
				select {
				case a := <-aborted:
					t.Errorf("aborted with %d (%s)", a.code, a.why)
				default:
				}
				return
			}
			a := <-aborted
			if a.code != tt.wantCode || !strings.Contains(a.why, tt.wantWhy) {
				t.Errorf("aborted with %d (%s), want %d (%s)", a.code, a.why, tt.wantCode, tt.wantWhy)
			}
		})
	}
}
