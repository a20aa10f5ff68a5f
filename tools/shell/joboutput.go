package shell

import "sync"

// jobOutput collects a background job's output (stdout and stderr share
// one pipe, so they interleave exactly as written): its latest bytes in
// memory, everything in a spill file once that overflows, and how far
// job_output has read.
type jobOutput struct {
	mu    sync.Mutex
	kept  *capture
	spool spool
	read  int64
}

func newJobOutput(limit int, spill *spillDir, spillLimit int64) *jobOutput {
	return &jobOutput{kept: newCapture(0, limit), spool: newSpool(spill, spillLimit)}
}

// write records b.
func (o *jobOutput) write(b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.spool.write(b)
	if o.kept.write(b) {
		o.spool.activate()
	}
}

// finish closes the spill file once the job's output has ended.
func (o *jobOutput) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.spool.close()
}

// text is the output as kept in memory (the latest bytes once it
// overflowed).
func (o *jobOutput) text() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.kept.text()
}

// unread returns the output not read before and marks it read. skipped
// counts bytes that were no longer kept; the spill file holds them, all of
// them or (spillKept > 0) only the output's first spillKept bytes. While
// the job runs (final false), a character still being written is left for
// the next read.
func (o *jobOutput) unread(final bool) (text string, skipped int64, spill spillRef) {
	o.mu.Lock()
	defer o.mu.Unlock()
	data, skipped := o.kept.since(o.read)
	if skipped > 0 {
		start := runeStart(data)
		data, skipped = data[start:], skipped+int64(start)
	}
	n := len(data)
	if !final {
		n = completePrefix(data)
	}
	o.read += skipped + int64(n)
	return validText(data[:n]), skipped, spillRef{path: o.spool.location(), kept: o.spool.kept()}
}
