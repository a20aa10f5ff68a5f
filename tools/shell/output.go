package shell

import (
	"fmt"
	"sync"
)

// streamLimit is how much of a foreground command's output is reported
// live; the rest reaches the user only in the result.
const streamLimit = 1 << 20

// The indexes of a foreground command's two streams.
const (
	stdout = 0
	stderr = 1
)

// foregroundOutput collects a foreground command's stdout and stderr: each
// kept within the output limit for the result, both spooled in arrival
// order to a spill file once one overflows, and both reported live, in
// arrival order, as valid UTF-8 chunks.
type foregroundOutput struct {
	mu       sync.Mutex
	streams  [2]*capture
	joiners  [2]runeJoiner
	spool    spool
	report   func(chunk string)
	streamed int
	muted    bool
}

// newForegroundOutput returns the collector of one command: limit bytes
// kept per stream, a spill file in spill holding up to spillLimit bytes,
// live chunks to report.
func newForegroundOutput(limit int, spill *spillDir, spillLimit int64, report func(string)) *foregroundOutput {
	o := &foregroundOutput{spool: newSpool(spill, spillLimit), report: report}
	for i := range o.streams {
		o.streams[i] = newCapture(limit/2, limit-limit/2)
	}
	return o
}

// sinks returns the stdout and stderr sinks for spawn.
func (o *foregroundOutput) sinks() []func([]byte) {
	return []func([]byte){
		func(b []byte) { o.write(stdout, b) },
		func(b []byte) { o.write(stderr, b) },
	}
}

// write records b, which arrived on stream i.
func (o *foregroundOutput) write(i int, b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.spool.write(b)
	if o.streams[i].write(b) {
		o.spool.activate()
	}
	o.stream(o.joiners[i].next(b))
}

// stream reports chunk live, until streamLimit bytes have been reported.
// Called with o.mu held, so chunks keep their arrival order.
func (o *foregroundOutput) stream(chunk string) {
	if chunk == "" || o.muted || o.report == nil {
		return
	}
	if o.streamed+len(chunk) > streamLimit {
		o.muted = true
		o.report(fmt.Sprintf("\n[live output stops after %d bytes; the result keeps the start and the end]\n", o.streamed))
		return
	}
	o.streamed += len(chunk)
	o.report(chunk)
}

// finish reports what the joiners held back and closes the spill file.
// Call it once no sink can run any more.
func (o *foregroundOutput) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for i := range o.joiners {
		o.stream(o.joiners[i].flush())
	}
	o.spool.close()
}

// result returns the command's value for exit.
func (o *foregroundOutput) result(exit exitStatus) commandResult {
	o.mu.Lock()
	defer o.mu.Unlock()
	r := commandResult{
		Stdout:          o.streams[stdout].text(),
		Stderr:          o.streams[stderr].text(),
		StdoutTruncated: o.streams[stdout].truncated(),
		StderrTruncated: o.streams[stderr].truncated(),
		ExitCode:        exit.code,
		Signal:          exit.signal,
	}
	if r.StdoutTruncated || r.StderrTruncated {
		r.SpillPath, r.SpillKept = o.spool.location(), o.spool.kept()
	}
	return r
}
