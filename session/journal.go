package session

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/gofrs/flock"
)

// Journal is an open session's event log on disk. It is a Sink: attach it
// to the session's Log with SetSink and every appended event is encoded
// and buffered in memory by Write, which never waits on the disk; Flush
// then appends everything buffered with one write(2). Flush before the
// editor is shown an event, and the event is on disk before the editor
// sees it.
//
// Flush does not fsync: the kernel keeps what write(2) stored when the
// process crashes or is killed, which is the failure the log guards
// against, and an fsync per event would cost far more than an append may
// take. Only the index replacement is synced. A machine crash can lose the
// last events; their torn line is ignored on load.
//
// Streamed pieces still buffered are merged: a run of AssistantChunk
// events of one kind (text or reasoning), or of ToolOutput events of one
// call, is written as one line with the run's whole text and its first
// piece's Seq, Time and Turn. Pieces flushed separately stay separate
// lines, and Store.Open merges them again.
//
// The Journal of a session Store.Create started stores the session when
// it first has something to keep: at its first Flush with events to
// write, unless Store.UpdateMeta stored it before. A failure to create
// its log is returned by that Flush and the events are kept for the next
// one; a failure to add it to the index is returned too, but the session
// is stored in its log all the same, and its events are written: the
// index gets the session back from its log (at the next UpdateMeta, or
// when a store opens the directory).
//
// A Journal is safe for concurrent use: Write may be called under the
// Log's lock while another goroutine flushes. From when the session is
// stored, the Journal holds the session's lock until Close.
type Journal struct {
	store *Store
	id    string

	mu      sync.Mutex // guards the fields up to flushMu
	buf     []byte     // encoded lines not yet written
	hasRun  bool       // a run of pieces is open
	run     Event      // the open run's first piece
	runText strings.Builder
	encErr  error // events that could not be encoded since the last Flush
	closed  bool

	// meta is the session's Meta as the Journal last stored or recorded
	// it; metaLine is its meta line when it has not been written yet.
	meta     Meta
	metaLine []byte

	flushMu sync.Mutex // serializes flushes; held during write(2)
	stored  bool       // the session's lock and log exist
	lock    *flock.Flock
	file    logFile
	size    int64  // where the last whole line on disk ends
	dirty   bool   // a failed write may have left a partial line past size
	retry   []byte // lines a failed write did not store; written first next time
	spare   []byte // a buffer for Write to fill while the last one is written

	closeOnce sync.Once
	closeErr  error
}

// logFile is the log file as a Journal uses it: appended to, and cut back
// to its last whole line after a failed write.
type logFile interface {
	Write(p []byte) (int, error)
	Truncate(size int64) error
	Close() error
}

// newJournal returns the Journal of a stored session whose Meta is meta,
// appending to file, whose whole lines end at size; it holds lock.
func newJournal(s *Store, meta Meta, lock *flock.Flock, file logFile, size int64) *Journal {
	return &Journal{store: s, id: meta.ID, meta: meta, stored: true, lock: lock, file: file, size: size}
}

// ID returns the session's id.
func (j *Journal) ID() string { return j.id }

// Write encodes ev and buffers it until the next Flush; it never blocks on
// the disk. An event that cannot be encoded is logged, left out, and
// reported by the next Flush. Events written after Close are dropped.
func (j *Journal) Write(ev Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		j.store.logger.Warn("session journal: event written after close was dropped", "session", j.id, "seq", ev.Seq, "kind", ev.Payload.Kind())
		return
	}
	if j.hasRun && sameRun(j.run.Payload, ev.Payload) {
		j.runText.WriteString(pieceText(ev.Payload))
		return
	}
	j.endRun()
	if isPiece(ev.Payload) {
		j.hasRun = true
		j.run = ev
		j.runText.WriteString(pieceText(ev.Payload))
		return
	}
	j.appendLine(ev)
}

// endRun buffers the open run of pieces as one line. j.mu is held.
func (j *Journal) endRun() {
	if !j.hasRun {
		return
	}
	ev := j.run
	ev.Payload = withPieceText(ev.Payload, j.runText.String())
	j.hasRun = false
	j.run = Event{}
	j.runText.Reset()
	j.appendLine(ev)
}

// appendLine encodes ev, redacted, into the buffer. j.mu is held.
func (j *Journal) appendLine(ev Event) {
	line, err := EncodeEvent(ev)
	if err == nil {
		line, err = j.store.redact.Line(line)
	}
	if err != nil {
		j.store.logger.Error("session journal: event left out of the log", "session", j.id, "seq", ev.Seq, "error", err)
		j.encErr = errors.Join(j.encErr, err)
		return
	}
	j.buf = append(j.buf, line...)
	j.buf = append(j.buf, '\n')
}

// Flush appends every buffered event to the log with one write(2),
// including the run of pieces still streaming. A failed write (a full
// disk) is logged and returned; the log is cut back to its last whole
// line and the lines are kept and written first by the next Flush, so the
// session keeps running and nothing is lost once the disk has room.
func (j *Journal) Flush() error {
	j.flushMu.Lock()
	defer j.flushMu.Unlock()
	return j.flush(false)
}

// Close flushes, closes the log and releases the session's lock. A
// session that was never stored (no event, no meta update) leaves nothing
// behind. Close is idempotent: later calls return the first call's
// result.
func (j *Journal) Close() error {
	j.closeOnce.Do(func() {
		j.flushMu.Lock()
		defer j.flushMu.Unlock()
		err := j.flush(true)
		j.store.forget(j)
		if j.file != nil {
			if cerr := j.file.Close(); cerr != nil {
				err = errors.Join(err, fmt.Errorf("close session %s log: %w", j.id, cerr))
			}
		}
		if j.lock != nil {
			if uerr := j.lock.Close(); uerr != nil {
				err = errors.Join(err, fmt.Errorf("unlock session %s: %w", j.id, uerr))
			}
		}
		j.closeErr = err
	})
	return j.closeErr
}

// flush writes what is buffered; with closing set, later Writes are
// dropped. j.flushMu is held.
func (j *Journal) flush(closing bool) error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil
	}
	j.closed = closing
	j.endRun()
	data := j.buf
	j.buf = j.spare
	j.spare = nil
	encErr := j.encErr
	j.encErr = nil
	data = append(data, j.metaLine...)
	j.metaLine = nil
	meta := j.meta
	j.mu.Unlock()

	out := data
	if len(j.retry) > 0 {
		out = append(j.retry, data...)
		j.retry = nil
	}
	if !j.stored && len(out) == 0 {
		// Nothing to keep yet, so nothing is stored.
		j.spare = data[:0]
		return encErr
	}
	var serr, werr error
	if !j.stored {
		if _, err := j.storeSession(meta); err != nil {
			serr = fmt.Errorf("store session %s: %w", j.id, err)
		}
	}
	// A stored session's events are written even when its index entry
	// could not be made: the log is the truth.
	if j.stored {
		if err := j.write(out); err != nil {
			werr = fmt.Errorf("write session %s log: %w", j.id, err)
		}
	}
	if written := j.stored && werr == nil; !written {
		j.retry = out
		j.store.logger.Error("session journal: write failed; the events are kept for the next flush", "session", j.id, "bytes", len(out), "error", errors.Join(serr, werr))
	} else if len(out) == len(data) {
		j.spare = data[:0]
	}
	if serr != nil && j.stored {
		j.store.logger.Error("session journal: the session is stored in its log, not in the index", "session", j.id, "error", serr)
	}
	return errors.Join(encErr, serr, werr)
}

// write appends out to the log after cutting off what an earlier failed
// write may have left. j.flushMu is held.
func (j *Journal) write(out []byte) error {
	if j.dirty {
		if err := j.file.Truncate(j.size); err != nil {
			return fmt.Errorf("cut back to the last whole line: %w", err)
		}
		j.dirty = false
	}
	if len(out) == 0 {
		return nil
	}
	n, err := j.file.Write(out)
	if err != nil {
		if n > 0 {
			// Cut the partial line now; if that fails too, retry before
			// the next write.
			j.dirty = j.file.Truncate(j.size) != nil
		}
		return err
	}
	j.size += int64(n)
	return nil
}
