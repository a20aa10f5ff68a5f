package session_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/presentation"
	"github.com/dsh-acp/dsh-acp/session"
)

// TestStoreKeepsNothingUntilThereIsSomethingToKeep: a new session is
// stored — lock, log and index entry together — by its first event
// flushed or its first meta update; one that had neither leaves no trace.
func TestStoreKeepsNothingUntilThereIsSomethingToKeep(t *testing.T) {
	stored := []string{"index.json", "index.lock", "sessions/s.jsonl", "sessions/s.lock"}
	tests := []struct {
		name string
		// do acts on the open session; its Journal is the log's sink.
		do         func(t *testing.T, ts *testStore, j *session.Journal, log *session.Log)
		wantFiles  []string // while the session is open, and after Close
		wantTitle  string
		wantEvents []string
	}{
		{name: "nothing", do: func(*testing.T, *testStore, *session.Journal, *session.Log) {}},
		{name: "a flush with nothing to write", do: func(t *testing.T, _ *testStore, j *session.Journal, _ *session.Log) {
			if err := j.Flush(); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "an event that cannot be encoded", do: func(t *testing.T, _ *testStore, j *session.Journal, log *session.Log) {
			log.Append(session.UserMessage{Content: []presentation.ContentBlock{presentation.UnknownBlock{Type: "x", JSON: "{"}}})
			if err := j.Flush(); err == nil {
				t.Error("Flush did not report the event left out")
			}
		}},
		{
			name: "an event flushed",
			do: func(t *testing.T, _ *testStore, j *session.Journal, log *session.Log) {
				log.Append(session.TurnStarted{})
				if err := j.Flush(); err != nil {
					t.Fatal(err)
				}
			},
			wantFiles: stored, wantTitle: "new", wantEvents: []string{"turn/start"},
		},
		{
			name: "an event flushed by Close",
			do: func(_ *testing.T, _ *testStore, _ *session.Journal, log *session.Log) {
				log.Append(session.TurnStarted{})
			},
			wantTitle: "new", wantEvents: []string{"turn/start"},
		},
		{
			name: "a meta update",
			do: func(t *testing.T, ts *testStore, _ *session.Journal, _ *session.Log) {
				if _, err := ts.UpdateMeta("s", func(m *session.Meta) { m.Title = "renamed" }); err != nil {
					t.Fatal(err)
				}
			},
			wantFiles: stored, wantTitle: "renamed",
		},
		{
			name: "a meta update, then an event",
			do: func(t *testing.T, ts *testStore, j *session.Journal, log *session.Log) {
				if _, err := ts.UpdateMeta("s", func(m *session.Meta) { m.Title = "renamed" }); err != nil {
					t.Fatal(err)
				}
				log.Append(session.TurnStarted{})
				if err := j.Flush(); err != nil {
					t.Fatal(err)
				}
			},
			wantFiles: stored, wantTitle: "renamed", wantEvents: []string{"turn/start"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestStore(t)
			j := ts.create(t, session.Meta{ID: "s", Title: "new"})
			if _, err := ts.Get("s"); !errors.Is(err, session.ErrNotFound) {
				t.Errorf("Get of a new session = %v, want ErrNotFound", err)
			}
			log := session.NewLog(nil)
			log.SetSink(j)
			tt.do(t, ts, j, log)
			if got := ts.files(t); !slices.Equal(got, tt.wantFiles) {
				t.Errorf("while open the store holds %v, want %v", got, tt.wantFiles)
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}

			wantFiles := tt.wantFiles
			if tt.wantTitle != "" {
				wantFiles = stored
			}
			if got := ts.files(t); !slices.Equal(got, wantFiles) {
				t.Errorf("after Close the store holds %v, want %v", got, wantFiles)
			}
			metas, err := ts.List("")
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantTitle == "" {
				if len(metas) != 0 {
					t.Errorf("List = %v", metas)
				}
				if _, err := ts.UpdateMeta("s", func(*session.Meta) {}); !errors.Is(err, session.ErrNotFound) {
					t.Errorf("UpdateMeta after Close = %v, want ErrNotFound", err)
				}
				if _, _, err := ts.Open("s"); !errors.Is(err, session.ErrNotFound) {
					t.Errorf("Open after Close = %v, want ErrNotFound", err)
				}
				return
			}
			if len(metas) != 1 || metas[0].Title != tt.wantTitle {
				t.Errorf("List = %+v, want s titled %q", metas, tt.wantTitle)
			}
			j2, loaded := ts.open(t, "s")
			defer j2.Close()
			if got := kinds(loaded.Events); !slices.Equal(got, tt.wantEvents) {
				t.Errorf("loaded %v, want %v", got, tt.wantEvents)
			}
		})
	}
}

// TestStoreUpdateMetaStoresANewSession: the first UpdateMeta of a session
// open here stores the Meta Create was given, changed as for a stored
// session, and returns what the index holds.
func TestStoreUpdateMetaStoresANewSession(t *testing.T) {
	ts := newTestStore(t, "secret")
	j := ts.create(t, session.Meta{ID: "s", Cwd: "/w/", AdditionalDirectories: []string{"/x"}, Model: "m", Preset: "p"})
	defer j.Close()
	created := ts.clock.Now()
	ts.clock.Advance(time.Hour)
	got, err := ts.UpdateMeta("s", func(m *session.Meta) {
		m.ID = "ignored"
		m.Title = "a secret title"
		m.Cwd = "/w/sub/.."
	})
	if err != nil {
		t.Fatal(err)
	}
	want := session.Meta{ID: "s", Cwd: filepath.FromSlash("/w"), AdditionalDirectories: []string{"/x"}, Title: "a [REDACTED] title",
		Created: created, Updated: ts.clock.Now(), Model: "m", Preset: "p"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("UpdateMeta = %+v\nwant %+v", got, want)
	}
	if again, err := ts.Get("s"); err != nil || !reflect.DeepEqual(again, want) {
		t.Errorf("Get = %+v, %v", again, err)
	}
}

// TestStoreStoresANewSessionOnce: updates and flushes racing to store a
// new session store it once; nothing is lost and every call succeeds.
func TestStoreStoresANewSessionOnce(t *testing.T) {
	ts := newTestStore(t)
	const sessions, updaters, events = 10, 3, 20
	for i := range sessions {
		id := fmt.Sprintf("s%d", i)
		j := ts.create(t, session.Meta{ID: id})
		log := session.NewLog(nil)
		log.SetSink(j)
		var wg sync.WaitGroup
		for u := range updaters {
			wg.Go(func() {
				if _, err := ts.UpdateMeta(id, func(m *session.Meta) { m.Model = fmt.Sprint(u) }); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Go(func() {
			for range events {
				log.Append(session.ToolStarted{CallID: "c"})
				if err := j.Flush(); err != nil {
					t.Error(err)
				}
			}
		})
		wg.Wait()
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		j2, loaded := ts.open(t, id)
		if len(loaded.Events) != events || loaded.Meta.Model == "" {
			t.Errorf("%s loaded %d events, meta %+v", id, len(loaded.Events), loaded.Meta)
		}
		if err := j2.Close(); err != nil {
			t.Fatal(err)
		}
	}
	metas, err := ts.List("")
	if err != nil || len(metas) != sessions {
		t.Errorf("List = %d sessions, %v", len(metas), err)
	}
}
