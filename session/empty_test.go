package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/dsh-acp/dsh-acp/session"
)

// createEmpty stores a session without a conversation, as the bridge
// does for one closed before its first prompt, and returns its id.
func (ts *testStore) createEmpty(t testing.TB, id string) string {
	t.Helper()
	j := ts.create(t, session.Meta{ID: id, Cwd: "/w"})
	if _, err := ts.UpdateMeta(id, func(m *session.Meta) { m.Empty = true }); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return id
}

// listed returns the ids List returns for every directory.
func listed(t testing.TB, s *session.Store) []string {
	t.Helper()
	metas, err := s.List("")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range metas {
		ids = append(ids, m.ID)
	}
	slices.Sort(ids)
	return ids
}

// An empty session is stored — Get and Open find it, with its Meta — but
// List leaves it out until it is no longer empty.
func TestEmptySessionsAreKeptUnlisted(t *testing.T) {
	ts := newTestStore(t)
	full := ts.createStored(t, session.Meta{ID: "full", Cwd: "/w"})
	empty := ts.createEmpty(t, "empty")
	if got := listed(t, ts.Store); !slices.Equal(got, []string{full}) {
		t.Errorf("List = %v, want only %s", got, full)
	}
	if m, err := ts.Get(empty); err != nil || !m.Empty {
		t.Errorf("Get(empty) = %+v, %v; want it, marked empty", m, err)
	}
	j, loaded := ts.open(t, empty)
	if !loaded.Meta.Empty || loaded.Meta.Cwd != filepath.FromSlash("/w") {
		t.Errorf("Open(empty) read %+v, want it empty in /w", loaded.Meta)
	}
	if _, err := ts.UpdateMeta(empty, func(m *session.Meta) { m.Empty = false }); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, ts.Store); !slices.Equal(got, []string{empty, full}) {
		t.Errorf("List = %v once it has a conversation, want both", got)
	}
	// The mark survives a rebuilt index: it is in the log too.
	if err := os.Remove(ts.dir + "/index.json"); err != nil {
		t.Fatal(err)
	}
	ts.createEmpty(t, "again")
	reopened, err := session.OpenStore(ts.dir, session.StoreOptions{Now: ts.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if got := listed(t, reopened); !slices.Equal(got, []string{empty, full}) {
		t.Errorf("List after a rebuilt index = %v, want %s and %s", got, empty, full)
	}
}

// A store that opens the directory removes the empty sessions not updated
// for EmptyKept, and only those: not a session with a conversation, not a
// recent empty one, not one open elsewhere.
func TestStaleEmptySessionsAreRemoved(t *testing.T) {
	ts := newTestStore(t)
	stale := ts.createEmpty(t, "stale")
	held := ts.createEmpty(t, "held")
	full := ts.createStored(t, session.Meta{ID: "full", Cwd: "/w"})
	ts.clock.Advance(session.EmptyKept - time.Hour)
	recent := ts.createEmpty(t, "recent")
	ts.clock.Advance(2 * time.Hour)

	other, err := session.OpenStore(ts.dir, session.StoreOptions{}) // another window, holding one open
	if err != nil {
		t.Fatal(err)
	}
	j, _, err := other.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()

	if _, err := session.OpenStore(ts.dir, session.StoreOptions{Now: ts.clock.Now}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{held, full, recent} {
		if _, err := ts.Get(id); err != nil {
			t.Errorf("%s was removed: %v", id, err)
		}
	}
	if _, err := ts.Get(stale); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Get(stale) = %v, want it removed", err)
	}
	if _, err := os.Stat(ts.logPath(stale)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale session's log is still there: %v", err)
	}
}
