package session_test

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/session"
)

// storeThree stores three sessions with every Meta field set, one of
// them changed after it was stored, and returns what List says of them.
func storeThree(t *testing.T, ts *testStore) []session.Meta {
	t.Helper()
	for i, id := range []string{"a", "b", "c"} {
		ts.clock.Advance(time.Minute)
		ts.createStored(t, session.Meta{ID: id, Cwd: "/w/" + id, AdditionalDirectories: []string{"/extra"},
			Title: "title " + id, Model: "m", Preset: "read-only", Effort: []string{"low", "high", ""}[i]})
	}
	ts.clock.Advance(time.Minute)
	if _, err := ts.UpdateMeta("b", func(m *session.Meta) { m.Title, m.Cwd = "renamed", "/w/moved" }); err != nil {
		t.Fatal(err)
	}
	metas, err := ts.List("")
	if err != nil || len(metas) != 3 {
		t.Fatalf("List = %v, %v", metas, err)
	}
	return metas
}

// reopen opens the store's directory again, as the next process would.
func (ts *testStore) reopen(t *testing.T) *testStore {
	t.Helper()
	next := &testStore{dir: ts.dir, log: &logBuffer{}, clock: ts.clock}
	s, err := session.OpenStore(ts.dir, session.StoreOptions{Now: ts.clock.Now, Logger: slog.New(slog.NewTextHandler(next.log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	next.Store = s
	return next
}

// asideFiles returns the contents of the corrupt indexes kept aside.
func asideFiles(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "index.json.corrupt-*"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(data))
	}
	return out
}

// TestStoreRebuildsACorruptIndex: a corrupt index is kept aside and
// rebuilt from the logs, by the next store to open the directory or by
// the store that finds it; every session is listed as it was, and the
// store goes on storing.
func TestStoreRebuildsACorruptIndex(t *testing.T) {
	for _, garbage := range []string{"{not json", "", "\x00\x00\x00\x00", `{"version":1,"sessions":{}}`} {
		for _, found := range []string{"by the next store", "by this store"} {
			t.Run(found+"/"+strings.ToValidUTF8(garbage, "?"), func(t *testing.T) {
				ts := newTestStore(t)
				want := storeThree(t, ts)
				index := filepath.Join(ts.dir, "index.json")
				if err := os.WriteFile(index, []byte(garbage), 0o600); err != nil {
					t.Fatal(err)
				}
				if found == "by the next store" {
					ts = ts.reopen(t)
				}
				got, err := ts.List("")
				if err != nil {
					t.Fatalf("List over a corrupt index = %v", err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("rebuilt list = %+v\nwant %+v", got, want)
				}
				if aside := asideFiles(t, ts.dir); !slices.Equal(aside, []string{garbage}) {
					t.Errorf("kept aside: %q, want the corrupt index once", aside)
				}
				if !strings.Contains(ts.log.String(), "kept aside") {
					t.Errorf("the repair was not logged:\n%s", ts.log.String())
				}
				ts.createStored(t, session.Meta{ID: "d"})
				if got, err := ts.reopen(t).List(""); err != nil || len(got) != 4 {
					t.Errorf("after the repair List = %v, %v", got, err)
				}
				if aside := asideFiles(t, ts.dir); len(aside) != 1 {
					t.Errorf("%d corrupt indexes kept aside, want 1", len(aside))
				}
			})
		}
	}
}

// TestStoreRebuildsFromLogsWithoutMeta: a log written before logs held
// their Meta gives its title, and its first event's time as Created.
func TestStoreRebuildsFromLogsWithoutMeta(t *testing.T) {
	ts := newTestStore(t)
	j := ts.create(t, session.Meta{ID: "old"})
	record(t, j, session.NewLog(ts.clock.Now), session.TurnStarted{}, session.TitleChanged{Title: "first"}, session.TitleChanged{Title: "second"})
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, line := range ts.readLog(t, "old") {
		if line != "" && !strings.HasPrefix(line, `{"meta":`) {
			events = append(events, line)
		}
	}
	if err := os.WriteFile(ts.logPath("old"), []byte(strings.Join(events, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ts.dir, "index.json"), []byte("garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ts.reopen(t).Get("old")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "second" || !got.Created.Equal(ts.clock.Now()) || got.Updated.IsZero() {
		t.Errorf("recovered %+v", got)
	}
}

// TestStoreKeepsTheLogWhenTheIndexFails: when the index cannot be
// written, a session is stored in its log all the same — its events and
// its Meta changes — every failure is returned, and the next store to
// open the directory, or the next UpdateMeta, lists it.
func TestStoreKeepsTheLogWhenTheIndexFails(t *testing.T) {
	ts := newTestStore(t)
	// A directory in the index's place can be neither read nor replaced.
	index := filepath.Join(ts.dir, "index.json")
	if err := os.MkdirAll(filepath.Join(index, "in-the-way"), 0o700); err != nil {
		t.Fatal(err)
	}
	j := ts.create(t, session.Meta{ID: "s", Cwd: "/w"})
	log := session.NewLog(ts.clock.Now)
	log.SetSink(j)
	log.Append(session.TurnStarted{})
	if err := j.Flush(); err == nil || !strings.Contains(err.Error(), "index") {
		t.Errorf("Flush without an index = %v, want the index's error", err)
	}
	if _, err := ts.UpdateMeta("s", func(m *session.Meta) { m.Title = "kept" }); err == nil {
		t.Error("UpdateMeta without an index succeeded")
	}
	log.Append(session.TurnEnded{})
	if err := j.Close(); err != nil {
		t.Errorf("Close = %v: the log took every event", err)
	}
	if _, err := ts.List(""); err == nil {
		t.Error("List without an index succeeded")
	}

	if err := os.RemoveAll(index); err != nil {
		t.Fatal(err)
	}
	// The next UpdateMeta, here, gives the session its entry back.
	if m, err := ts.UpdateMeta("s", func(*session.Meta) {}); err != nil || m.Title != "kept" {
		t.Errorf("UpdateMeta once the index is back = %+v, %v", m, err)
	}
	if metas, err := ts.List("/w"); err != nil || len(metas) != 1 {
		t.Errorf("List once the index is back = %+v, %v", metas, err)
	}
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	next := ts.reopen(t)
	metas, err := next.List("/w")
	if err != nil || len(metas) != 1 || metas[0].ID != "s" || metas[0].Title != "kept" {
		t.Fatalf("List after the index is back = %+v, %v", metas, err)
	}
	j2, loaded := next.open(t, "s")
	defer j2.Close()
	if got := kinds(loaded.Events); !slices.Equal(got, []string{"turn/start", "turn/end"}) || loaded.Meta.Title != "kept" {
		t.Errorf("loaded %v, meta %+v", got, loaded.Meta)
	}
}

// TestStoreUpdatesTheLogsMeta: UpdateMeta records the change in the
// session's log, whether a Journal has it open or not, so a rebuilt index
// has it.
func TestStoreUpdatesTheLogsMeta(t *testing.T) {
	for _, open := range []bool{true, false} {
		t.Run(map[bool]string{true: "open", false: "closed"}[open], func(t *testing.T) {
			ts := newTestStore(t)
			id := ts.createStored(t, session.Meta{ID: "s", Cwd: "/w"})
			var j *session.Journal
			if open {
				j, _ = ts.open(t, id)
			}
			want, err := ts.UpdateMeta(id, func(m *session.Meta) { m.Title, m.Model = "new title", "m2" })
			if err != nil {
				t.Fatal(err)
			}
			if j != nil {
				if err := j.Close(); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Remove(filepath.Join(ts.dir, "index.json")); err != nil {
				t.Fatal(err)
			}
			got, err := ts.reopen(t).Get(id)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("from the log: %+v, %v\nwant %+v", got, err, want)
			}
		})
	}
}

// TestStoreDropsEntriesWithoutALog: an entry whose log is gone (a crash
// in Delete) is dropped by the next store to open the directory.
func TestStoreDropsEntriesWithoutALog(t *testing.T) {
	ts := newTestStore(t)
	ts.createStored(t, session.Meta{ID: "gone"})
	ts.createStored(t, session.Meta{ID: "kept"})
	if err := os.Remove(ts.logPath("gone")); err != nil {
		t.Fatal(err)
	}
	metas, err := ts.reopen(t).List("")
	if err != nil || len(metas) != 1 || metas[0].ID != "kept" {
		t.Errorf("List = %+v, %v", metas, err)
	}
	if _, err := ts.reopen(t).Get("gone"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Get(gone) = %v", err)
	}
}
