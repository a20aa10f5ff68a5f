package session_test

import (
	"bytes"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/secrets"
	"github.com/dsh-acp/dsh-acp/session"
)

// logBuffer collects what a store logs, safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testClock is a clock tests advance by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)}
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testStore is a store in a fresh directory, with its log captured.
type testStore struct {
	*session.Store
	dir   string
	log   *logBuffer
	clock *testClock
}

func newTestStore(t testing.TB, keys ...string) *testStore {
	t.Helper()
	ts := &testStore{dir: filepath.Join(t.TempDir(), "state"), log: &logBuffer{}, clock: newTestClock()}
	s, err := session.OpenStore(ts.dir, session.StoreOptions{
		Redactor: secrets.NewRedactor(keys...),
		Now:      ts.clock.Now,
		Logger:   slog.New(slog.NewTextHandler(ts.log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ts.Store = s
	return ts
}

func (ts *testStore) logPath(id string) string {
	return filepath.Join(ts.dir, "sessions", id+".jsonl")
}

// readLog returns the raw lines of a session's log file.
func (ts *testStore) readLog(t testing.TB, id string) []string {
	t.Helper()
	data, err := os.ReadFile(ts.logPath(id))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(data), "\n")
}

// create makes a session and fails the test on error.
func (ts *testStore) create(t testing.TB, meta session.Meta) *session.Journal {
	t.Helper()
	j, err := ts.Create(meta)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// createStored makes a session with one event, so that it is stored,
// closes it and returns its id.
func (ts *testStore) createStored(t testing.TB, meta session.Meta) string {
	t.Helper()
	j := ts.create(t, meta)
	record(t, j, session.NewLog(ts.clock.Now), session.TurnStarted{})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return j.ID()
}

// files lists what the store's directory holds, relative to it, sorted.
func (ts *testStore) files(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(ts.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(ts.dir, path)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// open opens a session and fails the test on error.
func (ts *testStore) open(t testing.TB, id string) (*session.Journal, session.Loaded) {
	t.Helper()
	j, loaded, err := ts.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	return j, loaded
}

// record appends payloads to a Log wired to j, flushes and returns the
// log's events.
func record(t testing.TB, j *session.Journal, log *session.Log, payloads ...session.Payload) []session.Event {
	t.Helper()
	log.SetSink(j)
	for _, p := range payloads {
		log.Append(p)
	}
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	return log.Events()
}

// kinds lists the kinds of events, for compact comparisons.
func kinds(events []session.Event) []string {
	out := make([]string, len(events))
	for i, ev := range events {
		out[i] = ev.Payload.Kind()
	}
	return out
}
